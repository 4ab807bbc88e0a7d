import { ConfigurationError } from "../error/configuration-error.js";
import { warnDeprecated } from "../log/deprecation-warning.js";
import { registerSecret } from "../log/redact.js";
import type { JwksOptions } from "./remote-key-set.js";
import {
  type AuthIdentity,
  createTokenVerifier,
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
  jwksURL?: never;
  jwksUrl?: never;
  jwksOptions?: never;
}

/** A card whose token is signed with a key published as a JSON Web Key Set. */
export interface JwksAuthCardOptions extends AuthCardBaseOptions {
  /** Where the JWKS is served, `https:` (or `http:` for a local issuer). */
  jwksURL: string | URL;
  jwksUrl?: never;
  /** Fetching and caching of the JWKS. */
  jwksOptions?: JwksOptions;
  /** Accepted algorithms. Default: every RSA, RSA-PSS, ECDSA and EdDSA algorithm. */
  algorithms?: PublicKeyAlgorithm[];
  secret?: never;
}

/**
 * A JWKS card given its URL by the old name.
 *
 * @deprecated Use {@link JwksAuthCardOptions}, whose `jwksURL` is the same URL; `jwksUrl` goes
 * away in the next minor version.
 */
export interface DeprecatedJwksAuthCardOptions
  extends Omit<JwksAuthCardOptions, "jwksURL" | "jwksUrl"> {
  /**
   * @deprecated Use `jwksURL` (same meaning, spelled like every URL option of the framework);
   * `jwksUrl` goes away in the next minor version.
   */
  jwksUrl: string | URL;
  jwksURL?: never;
}

/** Options of {@link createAuthCard}: exactly one of `secret` or `jwksURL`. */
export type AuthCardOptions =
  | SecretAuthCardOptions
  | JwksAuthCardOptions
  | DeprecatedJwksAuthCardOptions;

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
 * Creates an authentication card. Exactly one of `secret` (HS256/384/512) or `jwksURL` (keys
 * fetched from a JSON Web Key Set, cached, and fetched again when a token names an unknown
 * key) says how the signature is checked. The token and a string secret are registered as
 * secrets, so they are redacted from log lines. Nothing is verified or fetched here; call
 * {@link AuthCard.verify} (the agent does, through `authenticate`).
 *
 * @throws ConfigurationError when the options are inconsistent (both or neither of
 * `secret` and `jwksURL`, an empty secret, an invalid URL, algorithms of the wrong family).
 *
 * @example
 * const authCard = createAuthCard({ token, secret: process.env.AUTH_SECRET, issuer: "https://id.example.com" });
 * const agent = new Agent({ llm, tools, authCard });
 */
export function createAuthCard(options: AuthCardOptions): AuthCard {
  const { token } = options;
  if (typeof token === "string") registerSecret(token, { evictable: true });
  const hasSecret = options.secret !== undefined;
  if (options.jwksUrl !== undefined) {
    warnDeprecated(
      "FRAMEWORK_AUTH_CARD_JWKS_URL",
      "@framework/core: createAuthCard's jwksUrl option is deprecated, pass the same URL as jwksURL; jwksUrl goes away in the next minor version",
    );
  }
  // JavaScript callers may pass both names, which the types forbid.
  const named = options as { jwksURL?: string | URL; jwksUrl?: string | URL };
  if (
    named.jwksURL !== undefined &&
    named.jwksUrl !== undefined &&
    String(named.jwksURL) !== String(named.jwksUrl)
  ) {
    throw new ConfigurationError({
      setting: "authCard.jwksURL",
      message: "jwksURL and the deprecated jwksUrl name different URLs: give jwksURL only",
    });
  }
  const jwksURL = options.jwksURL ?? options.jwksUrl;
  if (hasSecret === (jwksURL !== undefined)) {
    throw new ConfigurationError({
      setting: "authCard",
      message: "An authentication card needs exactly one of `secret` or `jwksURL`",
    });
  }
  const { issuer, audience, clockToleranceSeconds, now } = options;
  const checks = { issuer, audience, clockToleranceSeconds, now };
  const verifierOptions: TokenVerifierOptions =
    options.secret !== undefined
      ? { ...checks, secret: options.secret, algorithms: options.algorithms }
      : {
          ...checks,
          jwksURL: jwksURL as string | URL,
          jwksOptions: options.jwksOptions,
          algorithms: options.algorithms,
        };
  const verifier = createTokenVerifier(verifierOptions, "authCard");
  return { verify: () => verifier.verify(token) };
}
