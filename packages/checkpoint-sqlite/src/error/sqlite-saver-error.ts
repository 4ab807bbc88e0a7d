import { FrameworkError } from "@framework/core";

const name = "SqliteSaverError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * SQLite refused an operation on the checkpoint database for a reason other than a lock: the
 * file is not a database, is corrupt, read-only, or the disk is full. `code` is SQLite's
 * (e.g. `SQLITE_NOTADB`).
 */
export class SqliteSaverError extends FrameworkError {
  private readonly [symbol] = true;

  /** The database file. */
  declare readonly path: string;
  /** What the saver was doing, e.g. `"open"` or `"put"`. */
  declare readonly operation: string;
  /** SQLite's error code, when SQLite gave one. */
  declare readonly code: string | undefined;

  constructor(options: { path: string; operation: string; code?: string; cause?: unknown }) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super({
      name,
      message: `Checkpoint database "${options.path}" failed during ${options.operation}: ${reason}`,
      cause: options.cause,
      fields: { path: options.path, operation: options.operation, code: options.code },
    });
  }

  static override isInstance(error: unknown): error is SqliteSaverError {
    return FrameworkError.hasMarker(error, marker);
  }
}
