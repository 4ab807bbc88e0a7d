import { FrameworkError } from "@framework/core";

const name = "PostgresSaverError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Postgres refused a checkpoint operation for a reason other than being unreachable or too
 * slow: authentication failed, the database does not exist, a permission is missing. The
 * message and `cause` never contain the connection's password.
 */
export class PostgresSaverError extends FrameworkError {
  private readonly [symbol] = true;

  /** What the saver was doing, e.g. `"put"` or `"setup"`. */
  declare readonly operation: string;
  /** Postgres's SQLSTATE (e.g. `"28P01"`) or the socket's error code, when there was one. */
  declare readonly code: string | undefined;

  constructor(options: { operation: string; message: string; code?: string; cause?: unknown }) {
    super({
      name,
      message: options.message,
      cause: options.cause,
      fields: { operation: options.operation, code: options.code },
    });
  }

  static override isInstance(error: unknown): error is PostgresSaverError {
    return FrameworkError.hasMarker(error, marker);
  }
}
