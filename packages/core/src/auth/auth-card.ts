import { ConfigurationError } from "../error/configuration-error.js";
import { registerSecret } from "../log/redact.js";
import type { JwksOptions } from "./remote-key-set.js";
import {
  type AuthIdentity,
  buildTokenVerifier,
  type HmacAlgorithm,
  type PublicKeyAlgorithm,
  type TokenVerifierBaseOptions,
  type TokenVerifierOptions,
} from "./token-verifier.js";

// Re-exported because they were first declared here and card users import them from here.
export type {
  AuthClaims,
  AuthIdentity,
  HmacAlgorithm,
  PublicKeyAlgorithm,
} from "./token-verifier.js";

/** Options every authentication card takes, whatever checks its signature. */
export interface AuthCardBaseOptions extends TokenVerifierBaseOptions {
  /** The JWT in compact form (`header.payload.signature`), without a `Bearer ` prefix. */
  token: string;
}

/** A card whose token is signed with a shared secret (HS256, HS384 or HS512). */
export interface SecretAuthCardOptions extends AuthCardBaseOptions {
  /** The shared secret; a string is used as its UTF-8 bytes. */
  secret: string | Uint8Array;
  /** Accepted algorithms. Default: all of HS256, HS384 and HS512. */
  algorithms?: HmacAlgorithm[];
  jwksUrl?: never;
  jwksOptions?: never;
}

/** A card whose token is signed with a key published as a JSON Web Key Set. */
export interface JwksAuthCardOptions extends AuthCardBaseOptions {
  /** Where the JWKS is served, `https:` (or `http:` for a local issuer). */
  jwksUrl: string | URL;
  /** Fetching and caching of the JWKS. */
  jwksOptions?: JwksOptions;
  /** Accepted algorithms. Default: every RSA, RSA-PSS, ECDSA and EdDSA algorithm. */
  algorithms?: PublicKeyAlgorithm[];
  secret?: never;
}

/** Options of {@link createAuthCard}: exactly one of `secret` or `jwksUrl`. */
export type AuthCardOptions = SecretAuthCardOptions | JwksAuthCardOptions;

/**
 * A JWT together with how to verify it, given to an Agent or CrewAgent as `authCard`. The
 * token is kept out of the card's enumerable properties, so logging or serialising a card
 * never shows it.
 */
export interface AuthCard {
  /**
   * Verifies the token: algorithm, signature, `exp`, `nbf`, issuer and audience when
   * configured, and a non-empty `sub`. Throws an `AuthenticationError` naming the reason.
   */
  verify(): Promise<AuthIdentity>;
}

/**
 * Creates an authentication card. Exactly one of `secret` (HS256/384/512) or `jwksUrl` (keys
 * fetched from a JSON Web Key Set, cached, and fetched again when a token names an unknown
 * key) says how the signature is checked. The token and a string secret are registered as
 * secrets, so they are redacted from log lines. Nothing is verified or fetched here; call
 * {@link AuthCard.verify} (the agent does, through `authenticate`).
 *
 * @throws ConfigurationError when the options are inconsistent (both or neither of
 * `secret` and `jwksUrl`, an empty secret, an invalid URL, algorithms of the wrong family).
 *
 * @example
 * const authCard = createAuthCard({ token, secret: process.env.AUTH_SECRET, issuer: "https://id.example.com" });
 * const agent = new Agent({ llm, tools, authCard });
 */
export function createAuthCard(options: AuthCardOptions): AuthCard {
  const { token } = options;
  if (typeof token === "string") registerSecret(token, { evictable: true });
  const hasSecret = options.secret !== undefined;
  const hasJwksUrl = options.jwksUrl !== undefined;
  if (hasSecret === hasJwksUrl) {
    throw new ConfigurationError({
      setting: "authCard",
      message: "An authentication card needs exactly one of `secret` or `jwksUrl`",
    });
  }
  const { issuer, audience, clockToleranceSeconds, now } = options;
  const checks = { issuer, audience, clockToleranceSeconds, now };
  const verifierOptions: TokenVerifierOptions = hasSecret
    ? { ...checks, secret: options.secret, algorithms: options.algorithms }
    : {
        ...checks,
        jwksURL: options.jwksUrl,
        jwksOptions: options.jwksOptions,
        algorithms: options.algorithms,
      };
  const verifier = buildTokenVerifier(verifierOptions, (setting) =>
    setting === undefined ? "authCard" : `authCard.${setting === "jwksURL" ? "jwksUrl" : setting}`,
  );
  return { verify: () => verifier.verify(token) };
}
