import { unknownUserId } from "@framework/core";

/** Who a request acts for: every thread and run it makes belongs to this user. */
export interface ServerUser {
  /** A stable id: owners are compared by it, and nodes see it as `user_id`. */
  readonly id: string;
  /** Whatever else the authenticator knows, e.g. a token's claims. */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/**
 * Decides who sent a request: a user, or `null` when it carries no credentials the server
 * accepts (answered 401). It may throw an `UnauthenticatedError` or core's
 * `AuthenticationError` (both answered 401, with their reason); anything else it throws is
 * answered 500 without details, which go to the server's log. `jwtAuth` and `apiKeyAuth`
 * make one; any function of the request will do.
 */
export type ServerAuth = (request: Request) => ServerUser | null | Promise<ServerUser | null>;

/** The user of a server without `auth`, which listens on loopback only. */
export const localUser: ServerUser = { id: unknownUserId };
