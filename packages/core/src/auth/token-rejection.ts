import { errors } from "jose";
import { AuthenticationError, type AuthenticationFailure } from "../error/authentication-error.js";
import { errorMessage } from "../error/error-message.js";

/** What the verifier expected, so that a rejection can say what did not match. */
export interface VerificationExpectations {
  /** The algorithms the card accepts. */
  algorithms: readonly string[];
  /** The accepted issuer(s), when configured. */
  issuer?: string | readonly string[];
  /** The accepted audience(s), when configured. */
  audience?: string | readonly string[];
  /** Where the signature is checked against, e.g. `"the configured secret"`. */
  keyDescription: string;
}

/**
 * Builds the {@link AuthenticationError} every rejection goes through, so that all messages
 * share one prefix. `detail` must never contain the token or key material.
 */
export function rejectToken(
  reason: AuthenticationFailure,
  detail: string,
  cause?: unknown,
): AuthenticationError {
  return new AuthenticationError({
    reason,
    message: `Authentication failed: ${detail}`,
    cause,
  });
}

/**
 * Quotes a value taken from the token's header or claims. The token is attacker-controlled,
 * so the value is shortened to keep messages readable whatever it holds.
 */
export function quoteTokenValue(value: unknown): string {
  const text = String(value);
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}...` : text);
}

function listOf(value: string | readonly string[]): string {
  const values = typeof value === "string" ? [value] : value;
  const quoted = values.map((item) => JSON.stringify(item)).join(", ");
  return values.length === 1 ? quoted : `one of ${quoted}`;
}

function timestamp(seconds: unknown): string {
  return typeof seconds === "number" && Number.isFinite(seconds)
    ? new Date(seconds * 1000).toISOString()
    : quoteTokenValue(seconds);
}

function claimFailure(
  error: errors.JWTClaimValidationFailed,
  expected: VerificationExpectations,
): AuthenticationError {
  const { claim, reason, payload } = error;
  // A time claim of the wrong type is a broken token, not a timing problem.
  if (reason === "invalid") {
    return rejectToken("malformed", `the token's "${claim}" claim must be a number`, error);
  }
  if (claim === "nbf") {
    return rejectToken(
      "not_yet_valid",
      `the token is not valid before ${timestamp(payload.nbf)}`,
      error,
    );
  }
  const configured =
    claim === "iss" ? expected.issuer : claim === "aud" ? expected.audience : undefined;
  const wanted = configured === undefined ? "" : ` (expected ${listOf(configured)})`;
  const problem = reason === "missing" ? "is missing" : "does not match";
  return rejectToken("claim_mismatch", `the token's "${claim}" claim ${problem}${wanted}`, error);
}

/**
 * Translates a failure of jose's `jwtVerify` into an {@link AuthenticationError} with the
 * matching `reason`. Errors that already are authentication errors (raised while fetching
 * keys) pass through unchanged.
 */
export function toAuthenticationError(
  error: unknown,
  expected: VerificationExpectations,
): AuthenticationError {
  if (AuthenticationError.isInstance(error)) return error;
  if (error instanceof errors.JWTExpired) {
    return rejectToken("expired", `the token expired at ${timestamp(error.payload.exp)}`, error);
  }
  if (error instanceof errors.JWTClaimValidationFailed) return claimFailure(error, expected);
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return rejectToken(
      "unsupported_algorithm",
      `the token's algorithm is not accepted (allowed: ${expected.algorithms.join(", ")}): ${error.message}`,
      error,
    );
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return rejectToken(
      "invalid_signature",
      `the token's signature does not verify against ${expected.keyDescription}`,
      error,
    );
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return rejectToken("malformed", `the token is not a well-formed JWT: ${error.message}`, error);
  }
  // What remains comes from using the key itself (e.g. an RSA key that is too short).
  const detail = errorMessage(error);
  return rejectToken(
    "key_unavailable",
    `the key from ${expected.keyDescription} could not be used: ${detail}`,
    error,
  );
}
