import type { AuthenticationError } from "@framework/core";
import { AuthenticationUnavailableError } from "../error/authentication-unavailable-error.js";
import { UnauthenticatedError } from "../error/unauthenticated-error.js";

// Every AuthenticationError message starts so; the answer's own prefix replaces it.
const corePrefix = /^Authentication failed: /;

/**
 * How a rejected token is answered: a 401 saying why (core's messages never quote the
 * token), or a 503 when the keys to check it could not be had, which is the server's
 * trouble rather than the client's.
 */
export function authenticationFailure(
  error: AuthenticationError,
): UnauthenticatedError | AuthenticationUnavailableError {
  if (error.reason === "key_unavailable")
    return new AuthenticationUnavailableError({ cause: error });
  return new UnauthenticatedError({ reason: error.message.replace(corePrefix, ""), cause: error });
}
