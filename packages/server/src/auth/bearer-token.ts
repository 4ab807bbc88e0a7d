import { UnauthenticatedError } from "../error/unauthenticated-error.js";

const bearer = /^Bearer +(\S+)$/i;

/**
 * The credential of the request's `Authorization: Bearer <credential>` header, or
 * `undefined` when it has no `Authorization` header.
 *
 * @throws UnauthenticatedError when the header holds another scheme or no credential.
 */
export function bearerToken(request: Request): string | undefined {
  // Headers.get trims the value, and an empty header is as good as none.
  const header = request.headers.get("authorization");
  if (!header) return undefined;
  const credential = bearer.exec(header)?.[1];
  if (credential === undefined) {
    throw new UnauthenticatedError({
      reason: "the Authorization header must be `Bearer <credential>`",
    });
  }
  return credential;
}
