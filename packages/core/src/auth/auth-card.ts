import {
  decodeProtectedHeader,
  type JWTPayload,
  type JWTVerifyOptions,
  jwtVerify,
  type ProtectedHeaderParameters,
} from "jose";
import { ConfigurationError } from "../error/configuration-error.js";
import { warnDeprecated } from "../log/deprecation-warning.js";
import { registerSecret } from "../log/redact.js";
import { describeJwksUrl, type JwksOptions, remoteKeySet } from "./remote-key-set.js";
import {
  quoteTokenValue,
  rejectToken,
  toAuthenticationError,
  type VerificationExpectations,
} from "./token-rejection.js";

const hmacAlgorithms = ["HS256", "HS384", "HS512"] as const;
const publicKeyAlgorithms = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
] as const;

/** Algorithms a card with a shared secret accepts. */
export type HmacAlgorithm = (typeof hmacAlgorithms)[number];

/** Algorithms a card with a JWKS URL accepts. */
export type PublicKeyAlgorithm = (typeof publicKeyAlgorithms)[number];

/** Options every authentication card takes, whatever checks its signature. */
export interface AuthCardBaseOptions {
  /** The JWT in compact form (`header.payload.signature`), without a `Bearer ` prefix. */
  token: string;
  /** Accepted `iss` value(s). When set, a token with another or no issuer is rejected. */
  issuer?: string | string[];
  /** Accepted `aud` value(s). When set, a token for none of them is rejected. */
  audience?: string | string[];
  /** Clock skew allowed when checking `exp` and `nbf`, in seconds. Default 0. */
  clockToleranceSeconds?: number;
  /** The clock `exp` and `nbf` are checked against. Defaults to the system clock. */
  now?: () => Date;
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
  /** Fetching and caching of the JWKS. */
  jwksOptions?: JwksOptions;
  /** Accepted algorithms. Default: every RSA, RSA-PSS, ECDSA and EdDSA algorithm. */
  algorithms?: PublicKeyAlgorithm[];
  jwksUrl?: never;
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

/** The claims of a verified token. `sub` is always present. */
export interface AuthClaims {
  /** The subject: the user id. */
  readonly sub: string;
  readonly iss?: string;
  readonly aud?: string | readonly string[];
  /** Expiry, in seconds since the epoch. */
  readonly exp?: number;
  /** Start of validity, in seconds since the epoch. */
  readonly nbf?: number;
  /** Issue time, in seconds since the epoch. */
  readonly iat?: number;
  readonly jti?: string;
  /** Any other claim the issuer put in the token. */
  readonly [claim: string]: unknown;
}

/** Who a verified card speaks for. */
export interface AuthIdentity {
  /** The token's `sub`. */
  userId: string;
  claims: AuthClaims;
}

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

type Verifier = (token: string, options: JWTVerifyOptions) => Promise<JWTPayload>;

interface KeyChoice {
  verifyJwt: Verifier;
  allowed: readonly string[];
  keyDescription: string;
}

function configurationError(setting: string, message: string): ConfigurationError {
  return new ConfigurationError({ setting: `authCard.${setting}`, message });
}

function chooseAlgorithms(
  requested: readonly string[] | undefined,
  family: readonly string[],
  keyKind: string,
): readonly string[] {
  if (requested === undefined) return family;
  const unsupported = requested.filter((algorithm) => !family.includes(algorithm));
  if (requested.length === 0 || unsupported.length > 0) {
    throw configurationError(
      "algorithms",
      `A card with ${keyKind} accepts only ${family.join(", ")}; got ${requested.length === 0 ? "an empty list" : unsupported.join(", ")}`,
    );
  }
  return [...requested];
}

function registerSecretBytes(secret: Uint8Array): void {
  // Byte secrets are usually text read from a file; that text is what could leak into a log.
  try {
    registerSecret(new TextDecoder("utf-8", { fatal: true }).decode(secret));
  } catch {
    // Not text, so it cannot appear verbatim in a message.
  }
}

function secretKey(options: SecretAuthCardOptions): KeyChoice {
  const { secret } = options;
  if (typeof secret === "string") registerSecret(secret);
  else if (secret instanceof Uint8Array) registerSecretBytes(secret);
  else throw configurationError("secret", "The secret must be a string or a Uint8Array");
  // A copy, so that the caller reusing its buffer cannot change the key afterwards.
  const key =
    typeof secret === "string" ? new TextEncoder().encode(secret) : new Uint8Array(secret);
  if (key.length === 0) throw configurationError("secret", "The secret must not be empty");
  const allowed = chooseAlgorithms(options.algorithms, hmacAlgorithms, "a shared secret");
  return {
    verifyJwt: async (token, verifyOptions) => (await jwtVerify(token, key, verifyOptions)).payload,
    allowed,
    keyDescription: "the configured secret",
  };
}

/**
 * The JWKS URL a card was given: `jwksURL`, or `jwksUrl`, its deprecated name, which still
 * works and warns once per process.
 */
function jwksURLOf(options: AuthCardOptions): string | URL | undefined {
  const { jwksURL, jwksUrl } = options as { jwksURL?: string | URL; jwksUrl?: string | URL };
  if (jwksUrl === undefined) return jwksURL;
  if (jwksURL !== undefined && String(jwksURL) !== String(jwksUrl)) {
    throw configurationError(
      "jwksURL",
      "A card takes jwksURL or its deprecated name jwksUrl, not two different URLs",
    );
  }
  warnDeprecated(
    "FRAMEWORK_AUTH_CARD_JWKS_URL",
    "@framework/core: createAuthCard's jwksUrl option is deprecated, pass the same URL as jwksURL; jwksUrl goes away in the next minor version",
  );
  return jwksUrl;
}

function jwksKey(
  jwksURL: string | URL,
  options: JwksAuthCardOptions | DeprecatedJwksAuthCardOptions,
): KeyChoice {
  let url: URL;
  try {
    url = new URL(jwksURL);
  } catch {
    throw configurationError("jwksURL", "The JWKS URL is not a valid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw configurationError(
      "jwksURL",
      `The JWKS URL must use https: or http:, not ${url.protocol}`,
    );
  }
  // fetch refuses such URLs, and its error would repeat the credentials.
  if (url.username !== "" || url.password !== "") {
    throw configurationError("jwksURL", "The JWKS URL must not contain credentials");
  }
  const allowed = chooseAlgorithms(options.algorithms, publicKeyAlgorithms, "a JWKS URL");
  const getKey = remoteKeySet(url, options.jwksOptions);
  return {
    verifyJwt: async (token, verifyOptions) =>
      (await jwtVerify(token, getKey, verifyOptions)).payload,
    allowed,
    keyDescription: describeJwksUrl(url),
  };
}

function checkAccepted(
  setting: "issuer" | "audience",
  value: string | string[] | undefined,
): string | string[] | undefined {
  if (value === undefined) return undefined;
  const values = typeof value === "string" ? [value] : value;
  if (values.length === 0 || values.some((item) => typeof item !== "string" || item === "")) {
    throw configurationError(setting, `The ${setting} must be a non-empty string or list of them`);
  }
  return typeof value === "string" ? value : [...value];
}

function readHeader(token: unknown): ProtectedHeaderParameters {
  if (typeof token !== "string" || token === "") {
    throw rejectToken("malformed", "the card holds no token");
  }
  try {
    return decodeProtectedHeader(token);
  } catch (error) {
    throw rejectToken(
      "malformed",
      "the token is not a well-formed JWT: its header cannot be decoded",
      error,
    );
  }
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
  const jwksURL = jwksURLOf(options);
  if (hasSecret === (jwksURL !== undefined)) {
    throw new ConfigurationError({
      setting: "authCard",
      message: "An authentication card needs exactly one of `secret` or `jwksURL`",
    });
  }
  const { verifyJwt, allowed, keyDescription } = hasSecret
    ? secretKey(options)
    : jwksKey(jwksURL!, options);
  const issuer = checkAccepted("issuer", options.issuer);
  const audience = checkAccepted("audience", options.audience);
  const clockTolerance = options.clockToleranceSeconds ?? 0;
  if (!Number.isFinite(clockTolerance) || clockTolerance < 0) {
    throw configurationError(
      "clockToleranceSeconds",
      "The clock tolerance must be a finite number of seconds, 0 or more",
    );
  }
  const now = options.now ?? (() => new Date());
  const expected: VerificationExpectations = {
    algorithms: allowed,
    issuer,
    audience,
    keyDescription,
  };

  return {
    async verify(): Promise<AuthIdentity> {
      const header = readHeader(token);
      if (typeof header.alg !== "string") {
        throw rejectToken("malformed", 'the token\'s header has no "alg"');
      }
      // Checked before jose so that the message names the offending algorithm, e.g. "none".
      if (!allowed.includes(header.alg)) {
        throw rejectToken(
          "unsupported_algorithm",
          `the token's algorithm ${quoteTokenValue(header.alg)} is not accepted (allowed: ${allowed.join(", ")})`,
        );
      }
      let payload: JWTPayload;
      try {
        payload = await verifyJwt(token, {
          algorithms: [...allowed],
          issuer,
          audience,
          clockTolerance,
          currentDate: now(),
        });
      } catch (error) {
        throw toAuthenticationError(error, expected);
      }
      const { sub } = payload;
      if (typeof sub !== "string" || sub === "") {
        throw rejectToken("missing_subject", 'the token has no "sub" claim, so it names no user');
      }
      return { userId: sub, claims: { ...payload, sub } };
    },
  };
}
