import { AuthenticationError } from "@framework/core";
import { UnauthenticatedError } from "../error/unauthenticated-error.js";
import { authenticationFailure } from "./authentication-failure.js";
import { localUser, type ServerAuth, type ServerUser } from "./server-auth.js";

/**
 * Who `request` acts for: the local user without `auth`, else whom `auth` names.
 *
 * @throws UnauthenticatedError when `auth` names no one or rejects a token.
 * @throws TypeError when `auth` names a user without an id: owners are compared by it, so
 *   an empty one would make such users share everything (answered 500).
 */
export async function requestUser(
  auth: ServerAuth | undefined,
  request: Request,
): Promise<ServerUser> {
  if (!auth) return localUser;
  let user: ServerUser | null;
  try {
    user = await auth(request);
  } catch (error) {
    if (AuthenticationError.isInstance(error)) throw authenticationFailure(error);
    throw error;
  }
  if (!user) throw new UnauthenticatedError({ reason: "no credentials the server accepts" });
  if (typeof user.id !== "string" || user.id === "") {
    throw new TypeError("The server's auth function returned a user without an id");
  }
  return user;
}
