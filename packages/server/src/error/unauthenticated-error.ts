import { FrameworkError } from "@framework/core";

const name = "UnauthenticatedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** The request carries no credentials the server accepts. */
export class UnauthenticatedError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 401;
  /** Why, without the credential itself, e.g. `the token expired at …`. */
  declare readonly reason: string;

  constructor(options: { reason: string; cause?: unknown }) {
    super({
      name,
      message: `Not authenticated: ${options.reason}`,
      cause: options.cause,
      fields: { status: 401, reason: options.reason },
    });
  }

  static override isInstance(error: unknown): error is UnauthenticatedError {
    return FrameworkError.hasMarker(error, marker);
  }
}
