import { FrameworkError } from "@framework/core";

const name = "AuthenticationUnavailableError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The server could not get what it checks credentials with (its JWKS did not answer, say).
 * The credentials may well be good, so this is a 503 rather than a 401; the cause goes to the
 * server's log, not to the client.
 */
export class AuthenticationUnavailableError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 503;

  constructor(options: { cause: unknown }) {
    super({
      name,
      message: "Credentials cannot be checked right now; try again later",
      cause: options.cause,
      fields: { status: 503 },
    });
  }

  static override isInstance(error: unknown): error is AuthenticationUnavailableError {
    return FrameworkError.hasMarker(error, marker);
  }
}
