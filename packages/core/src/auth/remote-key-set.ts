import { createRemoteJWKSet, errors, type JWTVerifyGetKey, type RemoteJWKSet } from "jose";
import { ConfigurationError } from "../error/configuration-error.js";
import { errorMessage } from "../error/error-message.js";
import { quoteTokenValue, rejectToken } from "./token-rejection.js";

/** How the keys of a remote JWKS are fetched and cached. Defaults are jose's. */
export interface JwksOptions {
  /**
   * Time after a successful fetch before a token with an unknown `kid` may trigger another
   * fetch, in milliseconds. Default 30 000.
   */
  cooldownMs?: number;
  /** Age after which cached keys are fetched again, in milliseconds. Default 600 000. */
  cacheMaxAgeMs?: number;
  /** Timeout of one fetch, in milliseconds. Default 5 000. */
  timeoutMs?: number;
}

const defaultTimeoutMs = 5_000;

// Cards are typically created per request (one token per user) while the JWKS URL is fixed,
// so key sets are shared per URL and options: otherwise every card would fetch the JWKS anew.
const sharedKeySets = new Map<string, RemoteJWKSet>();

function sharedKeySet(url: URL, options: JwksOptions, setting: string): RemoteJWKSet {
  const cacheKey = JSON.stringify([
    url.href,
    options.cooldownMs,
    options.cacheMaxAgeMs,
    options.timeoutMs,
  ]);
  let keySet = sharedKeySets.get(cacheKey);
  if (!keySet) {
    try {
      keySet = createRemoteJWKSet(url, {
        cooldownDuration: options.cooldownMs,
        cacheMaxAge: options.cacheMaxAgeMs,
        timeoutDuration: options.timeoutMs,
      });
    } catch (error) {
      throw new ConfigurationError({
        setting,
        message: `Invalid JWKS options: ${errorMessage(error)}`,
      });
    }
    sharedKeySets.set(cacheKey, keySet);
  }
  return keySet;
}

/** Names a JWKS URL in messages, leaving out credentials and query, which may hold secrets. */
export function describeJwksUrl(url: URL): string {
  return `the JWKS at ${url.origin}${url.pathname}`;
}

/**
 * A jose key resolver for the JWKS at `url`, with jose's caching: keys are fetched on first
 * use, again when stale, and again when a token names an unknown `kid` (after the cooldown),
 * so a rotated-in key is picked up and a rotated-away key stops verifying. Fetch failures
 * become {@link AuthenticationError}s with reason `key_unavailable`; a token that no key
 * matches is rejected with `invalid_signature`. Invalid `options` throw a
 * `ConfigurationError` naming `setting`.
 */
export function remoteKeySet(
  url: URL,
  options: JwksOptions = {},
  setting = "jwksOptions",
): JWTVerifyGetKey {
  const keySet = sharedKeySet(url, options, setting);
  const where = describeJwksUrl(url);
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey) {
        throw rejectToken(
          "invalid_signature",
          `no key in ${where} matches the token (kid ${quoteTokenValue(header.kid)}, alg ${quoteTokenValue(header.alg)}); its signing key may have been rotated away`,
          error,
        );
      }
      if (error instanceof errors.JWKSMultipleMatchingKeys) {
        throw rejectToken(
          "key_unavailable",
          `several keys in ${where} match the token (kid ${quoteTokenValue(header.kid)}); give each key a distinct "kid"`,
          error,
        );
      }
      if (error instanceof errors.JWKSTimeout) {
        throw rejectToken(
          "key_unavailable",
          `fetching ${where} timed out after ${options.timeoutMs ?? defaultTimeoutMs} ms`,
          error,
        );
      }
      throw rejectToken("key_unavailable", `${where} could not be used: ${describe(error)}`, error);
    }
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and keeps the useful part (e.g. ECONNREFUSED) in its cause.
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}
