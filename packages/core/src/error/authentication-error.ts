import { FrameworkError } from "./framework-error.js";

const name = "AuthenticationError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** Why an authentication card was rejected. */
export type AuthenticationFailure =
  | "expired"
  | "not_yet_valid"
  | "invalid_signature"
  | "unsupported_algorithm"
  | "claim_mismatch"
  | "malformed"
  | "missing_subject"
  | "key_unavailable";

/** An authentication card's token could not be verified; no model call was made. */
export class AuthenticationError extends FrameworkError {
  private readonly [symbol] = true;

  /** The kind of failure, for programmatic handling. */
  declare readonly reason: AuthenticationFailure;

  constructor({
    reason,
    message,
    cause,
  }: { reason: AuthenticationFailure; message: string; cause?: unknown }) {
    super({ name, message, cause, fields: { reason } });
  }

  static override isInstance(error: unknown): error is AuthenticationError {
    return FrameworkError.hasMarker(error, marker);
  }
}
