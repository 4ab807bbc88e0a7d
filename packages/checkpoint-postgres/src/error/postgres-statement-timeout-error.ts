import { FrameworkError } from "@framework/core";

const name = "PostgresStatementTimeoutError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Postgres cancelled a checkpoint statement that ran longer than the saver's
 * `statementTimeoutMs` (usually a lock held by another session). The statement was rolled
 * back: nothing was written.
 */
export class PostgresStatementTimeoutError extends FrameworkError {
  private readonly [symbol] = true;

  /** What the saver was doing, e.g. `"put"`. */
  declare readonly operation: string;
  /** The timeout in force, when the saver set it. */
  declare readonly timeoutMs: number | undefined;

  constructor(options: {
    operation: string;
    message: string;
    timeoutMs?: number;
    cause?: unknown;
  }) {
    super({
      name,
      message: options.message,
      cause: options.cause,
      fields: { operation: options.operation, timeoutMs: options.timeoutMs },
    });
  }

  static override isInstance(error: unknown): error is PostgresStatementTimeoutError {
    return FrameworkError.hasMarker(error, marker);
  }
}
