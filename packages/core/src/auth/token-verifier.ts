import { createPublicKey, KeyObject, type webcrypto } from "node:crypto";
import {
  type CryptoKey,
  decodeProtectedHeader,
  type KeyObject as JoseKeyObject,
  type JWK,
  type JWTPayload,
  type JWTVerifyOptions,
  jwtVerify,
  type ProtectedHeaderParameters,
} from "jose";
import { ConfigurationError } from "../error/configuration-error.js";
import { registerSecret } from "../log/redact.js";
import { describeJwksUrl, type JwksOptions, remoteKeySet } from "./remote-key-set.js";
import {
  quoteTokenValue,
  rejectToken,
  toAuthenticationError,
  type VerificationExpectations,
} from "./token-rejection.js";

const hmacAlgorithms = ["HS256", "HS384", "HS512"] as const;
const rsaAlgorithms = ["RS256", "RS384", "RS512"] as const;
const rsaPssAlgorithms = ["PS256", "PS384", "PS512"] as const;
const ecdsaAlgorithms = ["ES256", "ES384", "ES512"] as const;
const eddsaAlgorithms = ["EdDSA", "Ed25519"] as const;
const publicKeyAlgorithms = [
  ...rsaAlgorithms,
  ...rsaPssAlgorithms,
  ...ecdsaAlgorithms,
  ...eddsaAlgorithms,
] as const;

/** Algorithms of a token signed with a shared secret. */
export type HmacAlgorithm = (typeof hmacAlgorithms)[number];

/** Algorithms of a token signed with a private key, checked against its public key. */
export type PublicKeyAlgorithm = (typeof publicKeyAlgorithms)[number];

/**
 * A public key as {@link createTokenVerifier} takes it: a PEM string (SPKI `PUBLIC KEY`,
 * PKCS#1 `RSA PUBLIC KEY` or an X.509 `CERTIFICATE`), a JWK, a Web Crypto `CryptoKey` or a
 * Node.js `KeyObject`.
 */
export type PublicKeyInput = string | JWK | CryptoKey | JoseKeyObject;

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

/** Who a verified token speaks for. */
export interface AuthIdentity {
  /** The token's `sub`. */
  userId: string;
  claims: AuthClaims;
}

/** Options every token verifier takes, whatever checks the signature. */
export interface TokenVerifierBaseOptions {
  /** Accepted `iss` value(s). When set, a token with another or no issuer is rejected. */
  issuer?: string | string[];
  /** Accepted `aud` value(s). When set, a token for none of them is rejected. */
  audience?: string | string[];
  /** Clock skew allowed when checking `exp` and `nbf`, in seconds. Default 0. */
  clockToleranceSeconds?: number;
  /** The clock `exp` and `nbf` are checked against. Defaults to the system clock. */
  now?: () => Date;
}

/** Tokens signed with a shared secret (HS256, HS384 or HS512). */
export interface SecretTokenVerifierOptions extends TokenVerifierBaseOptions {
  /** The shared secret; a string is used as its UTF-8 bytes. */
  secret: string | Uint8Array;
  /** Accepted algorithms. Default: all of HS256, HS384 and HS512. */
  algorithms?: HmacAlgorithm[];
  publicKey?: never;
  jwksURL?: never;
  jwksOptions?: never;
}

/** Tokens signed with one private key, checked against its public key. */
export interface PublicKeyTokenVerifierOptions extends TokenVerifierBaseOptions {
  /** The public key. A private key is refused: a verifier has no use for it. */
  publicKey: PublicKeyInput;
  /**
   * Accepted algorithms. Default: those of the key's type (RS* and PS* for RSA, PS* for
   * RSA-PSS, the ES* of its curve for EC, EdDSA and Ed25519 for Ed25519).
   */
  algorithms?: PublicKeyAlgorithm[];
  secret?: never;
  jwksURL?: never;
  jwksOptions?: never;
}

/** Tokens signed with a key published as a JSON Web Key Set. */
export interface JwksTokenVerifierOptions extends TokenVerifierBaseOptions {
  /** Where the JWKS is served, `https:` (or `http:` for a local issuer). */
  jwksURL: string | URL;
  /** Fetching and caching of the JWKS. */
  jwksOptions?: JwksOptions;
  /** Accepted algorithms. Default: every RSA, RSA-PSS, ECDSA and EdDSA algorithm. */
  algorithms?: PublicKeyAlgorithm[];
  secret?: never;
  publicKey?: never;
}

/** Options of {@link createTokenVerifier}: exactly one of `secret`, `publicKey` or `jwksURL`. */
export type TokenVerifierOptions =
  | SecretTokenVerifierOptions
  | PublicKeyTokenVerifierOptions
  | JwksTokenVerifierOptions;

/** Checks JWTs against one configuration; made by {@link createTokenVerifier}. */
export interface TokenVerifier {
  /**
   * Verifies `token` (compact form, without a `Bearer ` prefix): algorithm, signature, `exp`,
   * `nbf`, issuer and audience when configured, and a non-empty `sub`.
   *
   * @throws AuthenticationError naming the reason; its message never contains the token or
   *   key material.
   */
  verify(token: string): Promise<AuthIdentity>;
}

/**
 * The options a configuration error can name.
 *
 * @internal
 */
export type TokenVerifierSetting =
  | "secret"
  | "publicKey"
  | "jwksURL"
  | "jwksOptions"
  | "algorithms"
  | "issuer"
  | "audience"
  | "clockToleranceSeconds";

/**
 * How configuration errors name a setting, e.g. `authCard.secret`; `undefined` names the
 * options as a whole.
 *
 * @internal
 */
export type SettingName = (setting?: TokenVerifierSetting) => string;

interface KeyChoice {
  verifyJwt: (token: string, options: JWTVerifyOptions) => Promise<JWTPayload>;
  allowed: readonly string[];
  keyDescription: string;
}

function configurationError(setting: string, message: string): ConfigurationError {
  return new ConfigurationError({ setting, message });
}

function chooseAlgorithms(
  requested: readonly string[] | undefined,
  family: readonly string[],
  keyKind: string,
  setting: string,
): readonly string[] {
  if (requested === undefined) return family;
  const unsupported = requested.filter((algorithm) => !family.includes(algorithm));
  if (requested.length === 0 || unsupported.length > 0) {
    throw configurationError(
      setting,
      `Tokens checked against ${keyKind} may use only ${family.join(", ")}; got ${requested.length === 0 ? "an empty list" : unsupported.join(", ")}`,
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

function secretKey(options: SecretTokenVerifierOptions, name: SettingName): KeyChoice {
  const { secret } = options;
  if (typeof secret === "string") registerSecret(secret);
  else if (secret instanceof Uint8Array) registerSecretBytes(secret);
  else throw configurationError(name("secret"), "The secret must be a string or a Uint8Array");
  // A copy, so that the caller reusing its buffer cannot change the key afterwards.
  const key =
    typeof secret === "string" ? new TextEncoder().encode(secret) : new Uint8Array(secret);
  if (key.length === 0) throw configurationError(name("secret"), "The secret must not be empty");
  const allowed = chooseAlgorithms(
    options.algorithms,
    hmacAlgorithms,
    "a shared secret",
    name("algorithms"),
  );
  return {
    verifyJwt: async (token, verifyOptions) => (await jwtVerify(token, key, verifyOptions)).payload,
    allowed,
    keyDescription: "the configured secret",
  };
}

function isCryptoKey(value: unknown): value is webcrypto.CryptoKey {
  return (value as { [Symbol.toStringTag]?: unknown } | null)?.[Symbol.toStringTag] === "CryptoKey";
}

function readPublicKey(input: unknown, setting: string): KeyObject {
  let key: KeyObject;
  try {
    if (typeof input === "string") {
      if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(input)) {
        throw configurationError(setting, "Give the public key, not the private key");
      }
      key = createPublicKey(input);
    } else if (input instanceof KeyObject) {
      key = input;
    } else if (isCryptoKey(input)) {
      key = KeyObject.from(input);
    } else if (typeof input === "object" && input !== null && "kty" in input) {
      if ("d" in input) throw configurationError(setting, "Give the public JWK, without its d");
      key = createPublicKey({ key: input as JWK & { kty: string }, format: "jwk" });
    } else {
      throw configurationError(
        setting,
        "The public key must be a PEM string, a JWK, a CryptoKey or a KeyObject",
      );
    }
  } catch (error) {
    if (ConfigurationError.isInstance(error)) throw error;
    // Not the parser's message: the key is configuration, and its text stays out of errors.
    throw configurationError(setting, "The public key cannot be read as a PEM key or a JWK");
  }
  if (key.type !== "public") {
    throw configurationError(setting, "Give the public key, not a private or secret key");
  }
  return key;
}

const ecdsaByCurve: Readonly<Record<string, PublicKeyAlgorithm>> = {
  prime256v1: "ES256",
  secp384r1: "ES384",
  secp521r1: "ES512",
};

/** The algorithms a public key can check, by its type (and curve). */
function algorithmsOf(key: KeyObject): readonly PublicKeyAlgorithm[] | undefined {
  switch (key.asymmetricKeyType) {
    case "rsa":
      return [...rsaAlgorithms, ...rsaPssAlgorithms];
    case "rsa-pss":
      return rsaPssAlgorithms;
    case "ec": {
      const algorithm = ecdsaByCurve[key.asymmetricKeyDetails?.namedCurve ?? ""];
      return algorithm ? [algorithm] : undefined;
    }
    case "ed25519":
      return eddsaAlgorithms;
    default:
      return undefined;
  }
}

function publicKey(options: PublicKeyTokenVerifierOptions, name: SettingName): KeyChoice {
  const key = readPublicKey(options.publicKey, name("publicKey"));
  const family = algorithmsOf(key);
  if (!family) {
    throw configurationError(
      name("publicKey"),
      "The public key must be an RSA, RSA-PSS, EC (P-256, P-384, P-521) or Ed25519 key",
    );
  }
  const allowed = chooseAlgorithms(
    options.algorithms,
    family,
    `this ${key.asymmetricKeyType} public key`,
    name("algorithms"),
  );
  return {
    verifyJwt: async (token, verifyOptions) => (await jwtVerify(token, key, verifyOptions)).payload,
    allowed,
    keyDescription: "the configured public key",
  };
}

function jwksKey(options: JwksTokenVerifierOptions, name: SettingName): KeyChoice {
  let url: URL;
  try {
    url = new URL(options.jwksURL);
  } catch {
    throw configurationError(name("jwksURL"), "The JWKS URL is not a valid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw configurationError(
      name("jwksURL"),
      `The JWKS URL must use https: or http:, not ${url.protocol}`,
    );
  }
  // fetch refuses such URLs, and its error would repeat the credentials.
  if (url.username !== "" || url.password !== "") {
    throw configurationError(name("jwksURL"), "The JWKS URL must not contain credentials");
  }
  const allowed = chooseAlgorithms(
    options.algorithms,
    publicKeyAlgorithms,
    "a JWKS",
    name("algorithms"),
  );
  // Made once per verifier: the key set fetches and caches the JWKS across tokens.
  const getKey = remoteKeySet(url, options.jwksOptions, name("jwksOptions"));
  return {
    verifyJwt: async (token, verifyOptions) =>
      (await jwtVerify(token, getKey, verifyOptions)).payload,
    allowed,
    keyDescription: describeJwksUrl(url),
  };
}

function checkAccepted(
  setting: string,
  label: string,
  value: string | string[] | undefined,
): string | string[] | undefined {
  if (value === undefined) return undefined;
  const values = typeof value === "string" ? [value] : value;
  if (values.length === 0 || values.some((item) => typeof item !== "string" || item === "")) {
    throw configurationError(setting, `The ${label} must be a non-empty string or list of them`);
  }
  return typeof value === "string" ? value : [...value];
}

function readHeader(token: unknown): ProtectedHeaderParameters {
  if (typeof token !== "string" || token === "") {
    throw rejectToken("malformed", "no token was given");
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

/** {@link createTokenVerifier} with configuration errors named by `name`. */
function buildTokenVerifier(options: TokenVerifierOptions, name: SettingName): TokenVerifier {
  const keyOptions = [options.secret, options.publicKey, options.jwksURL].filter(
    (value) => value !== undefined,
  );
  if (keyOptions.length !== 1) {
    throw configurationError(
      name(),
      "A token verifier needs exactly one of `secret`, `publicKey` or `jwksURL`",
    );
  }
  const { verifyJwt, allowed, keyDescription } =
    options.secret !== undefined
      ? secretKey(options, name)
      : options.publicKey !== undefined
        ? publicKey(options, name)
        : jwksKey(options as JwksTokenVerifierOptions, name);
  const issuer = checkAccepted(name("issuer"), "issuer", options.issuer);
  const audience = checkAccepted(name("audience"), "audience", options.audience);
  const clockTolerance = options.clockToleranceSeconds ?? 0;
  if (!Number.isFinite(clockTolerance) || clockTolerance < 0) {
    throw configurationError(
      name("clockToleranceSeconds"),
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
    async verify(token: string): Promise<AuthIdentity> {
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

/**
 * Creates a reusable JWT verifier: configured once (key, algorithms, issuer, audience, clock
 * skew), then {@link TokenVerifier.verify} checks one token after another, e.g. a server's
 * bearer tokens. Exactly one of `secret` (HS256/384/512), `publicKey` (one key, by its
 * type's algorithms) or `jwksURL` (keys fetched from a JSON Web Key Set on first use,
 * cached, and fetched again when stale or when a token names an unknown `kid`) says how
 * signatures are checked. `alg: "none"` and algorithms outside the allowed list are always
 * refused. A string secret is registered as a secret, so it is redacted from log lines.
 *
 * @param settingPrefix What configuration errors name the options after, e.g. `jwtAuth` for
 *   a wrapper's own options (`jwtAuth.jwksURL`). Default `tokenVerifier`.
 * @throws ConfigurationError when the options are inconsistent (not exactly one key option,
 *   an empty secret, a private or unreadable public key, an invalid URL, algorithms the key
 *   cannot check).
 *
 * @example
 * const verifier = createTokenVerifier({ jwksURL: "https://id.example.com/.well-known/jwks.json", issuer: "https://id.example.com", audience: "my-api" });
 * const { userId, claims } = await verifier.verify(bearerToken);
 */
export function createTokenVerifier(
  options: TokenVerifierOptions,
  settingPrefix = "tokenVerifier",
): TokenVerifier {
  return buildTokenVerifier(options, (setting) =>
    setting === undefined ? settingPrefix : `${settingPrefix}.${setting}`,
  );
}
