import { ConfigurationError } from "../error/configuration-error.js";
import { getDefaultLogger, type Logger } from "../log/logger.js";
import type { AuthCard, AuthClaims } from "./auth-card.js";

// Re-exported because callers of `authenticate` need the card's type alongside it.
export type { AuthCard } from "./auth-card.js";

/** The user id an agent acts as when it was given no authentication card. */
export const unknownUserId = "unknown_user";

/** Who an agent run acts for: a verified user, or `unknown_user` when there was no card. */
export type AuthContext =
  | { userId: typeof unknownUserId; authenticated: false }
  | { userId: string; authenticated: true; claims: AuthClaims };

/**
 * Establishes who an agent acts for, before any model call. Without a card it logs
 * `No authentication card provided, skipping authentication` and returns `unknown_user`;
 * with one it verifies the card's token and returns the token's `sub` as the user id.
 *
 * @throws AuthenticationError when the token is rejected; its `reason` says why and its
 * message never contains the token or the secret.
 * @throws ConfigurationError when `card` was not made by `createAuthCard`.
 */
export async function authenticate(
  card: AuthCard | undefined,
  logger: Logger = getDefaultLogger(),
): Promise<AuthContext> {
  // null counts as no card too: JavaScript callers often clear an option that way.
  if (card == null) {
    logger.info("No authentication card provided, skipping authentication");
    return { userId: unknownUserId, authenticated: false };
  }
  // JavaScript callers may pass the card's options object instead of a card.
  if (typeof card.verify !== "function") {
    throw new ConfigurationError({
      setting: "authCard",
      message: "authCard must be created with createAuthCard({ token, secret | jwksURL, ... })",
    });
  }
  const { userId, claims } = await card.verify();
  return { userId, authenticated: true, claims };
}
