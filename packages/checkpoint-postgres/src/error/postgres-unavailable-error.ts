import { FrameworkError } from "@framework/core";

const name = "PostgresUnavailableError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Postgres could not be reached, or dropped the connection (a restart, a failover, a network
 * cut) during a checkpoint operation. A `put` that fails this way may or may not have been
 * written: the next run reads the thread's head and continues from what is there. The
 * message and `cause` never contain the connection's password.
 */
export class PostgresUnavailableError extends FrameworkError {
  private readonly [symbol] = true;

  /** What the saver was doing, e.g. `"put"`. */
  declare readonly operation: string;
  /** Postgres's SQLSTATE (e.g. `"57P01"`) or the socket's error code (e.g. `"ECONNREFUSED"`). */
  declare readonly code: string | undefined;

  constructor(options: { operation: string; message: string; code?: string; cause?: unknown }) {
    super({
      name,
      message: options.message,
      cause: options.cause,
      fields: { operation: options.operation, code: options.code },
    });
  }

  static override isInstance(error: unknown): error is PostgresUnavailableError {
    return FrameworkError.hasMarker(error, marker);
  }
}
