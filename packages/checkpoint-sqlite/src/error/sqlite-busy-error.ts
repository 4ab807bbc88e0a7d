import { FrameworkError } from "@framework/core";

const name = "SqliteBusyError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The checkpoint database stayed locked by another connection (another process writing the
 * same file) for longer than the saver's `busyTimeoutMs`. Nothing was written; retrying later
 * is safe.
 */
export class SqliteBusyError extends FrameworkError {
  private readonly [symbol] = true;

  /** The database file. */
  declare readonly path: string;
  /** What the saver was doing, e.g. `"put"`. */
  declare readonly operation: string;
  /** How long SQLite waited for the lock. */
  declare readonly timeoutMs: number;

  constructor(options: { path: string; operation: string; timeoutMs: number; cause?: unknown }) {
    super({
      name,
      message:
        `Checkpoint database "${options.path}" stayed locked by another connection for ` +
        `${options.timeoutMs} ms during ${options.operation}; nothing was written, try again`,
      cause: options.cause,
      fields: { path: options.path, operation: options.operation, timeoutMs: options.timeoutMs },
    });
  }

  static override isInstance(error: unknown): error is SqliteBusyError {
    return FrameworkError.hasMarker(error, marker);
  }
}
