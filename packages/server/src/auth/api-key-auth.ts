import { createHash, timingSafeEqual } from "node:crypto";
import { ConfigurationError, registerSecret } from "@framework/core";
import { UnauthenticatedError } from "../error/unauthenticated-error.js";
import { bearerToken } from "./bearer-token.js";
import type { ServerAuth, ServerUser } from "./server-auth.js";

/**
 * Looks up the user an API key acts for, or `null` for a key it does not know. Compare keys
 * in constant time (or look up a digest of the key), so that timing reveals nothing.
 */
export type ApiKeyLookup = (key: string) => ServerUser | null | Promise<ServerUser | null>;

/** Options of {@link apiKeyAuth}. */
export interface ApiKeyAuthOptions {
  /**
   * The accepted API keys, each mapped to the id of the user it acts for (several keys may
   * act for one user, e.g. while rotating), or a function looking a key up.
   */
  keys: Readonly<Record<string, string>> | ReadonlyMap<string, string> | ApiKeyLookup;
}

const digest = (key: string): Buffer => createHash("sha256").update(key, "utf8").digest();

/**
 * Looks keys up by their SHA-256 digests, comparing the presented key's with every configured
 * key's: equal lengths for `timingSafeEqual`, and no early exit, so the time taken tells
 * neither a key's length, nor how much of it matched, nor which key it was.
 */
function digestLookup(keys: Readonly<Record<string, string>> | ReadonlyMap<string, string>) {
  const entries = keys instanceof Map ? [...keys] : Object.entries(keys);
  if (entries.length === 0) {
    throw new ConfigurationError({
      setting: "apiKeyAuth.keys",
      message: "apiKeyAuth needs at least one key",
    });
  }
  const known = entries.map(([key, userId]) => {
    if (typeof key !== "string" || key === "" || typeof userId !== "string" || userId === "") {
      throw new ConfigurationError({
        setting: "apiKeyAuth.keys",
        message: "Every API key and every user id must be a non-empty string",
      });
    }
    registerSecret(key);
    const user: ServerUser = { id: userId };
    return { digest: digest(key), user };
  });
  return (key: string): ServerUser | null => {
    const presented = digest(key);
    let found: ServerUser | null = null;
    for (const { digest: candidate, user } of known) {
      if (timingSafeEqual(candidate, presented) && found === null) found = user;
    }
    return found;
  };
}

/**
 * Authenticates requests by an API key, taken from the `x-api-key` header (what
 * `@langchain/langgraph-sdk`'s `Client({ apiKey })` sends) or else from
 * `Authorization: Bearer <key>`. Given a record or map, keys are compared in constant time:
 * the presented key's SHA-256 digest against every configured key's, so neither a key's
 * length nor how much of it matched shows in the response time. Configured keys are
 * registered as secrets, so they are redacted from log lines.
 *
 * A request without a key is answered 401, and so is a key that is not accepted.
 *
 * @throws ConfigurationError when `keys` is empty or holds an empty key or user id.
 *
 * @example
 * const server = createServer({
 *   agents: { research },
 *   auth: apiKeyAuth({ keys: { [process.env.ALICE_API_KEY!]: "alice" } }),
 * });
 */
export function apiKeyAuth(options: ApiKeyAuthOptions): ServerAuth {
  const { keys } = options;
  const lookup: ApiKeyLookup = typeof keys === "function" ? keys : digestLookup(keys);
  return async (request) => {
    const key = request.headers.get("x-api-key") || bearerToken(request);
    if (!key) return null;
    const user = await lookup(key);
    if (!user) throw new UnauthenticatedError({ reason: "the API key is not accepted" });
    return user;
  };
}
