import { expect } from "vitest";
import { AuthenticationError, type AuthenticationFailure } from "../error/authentication-error.js";
import type { AuthCard } from "./auth-card.js";

/** The fixed instant tests verify tokens at, so no assertion depends on the wall clock. */
const fixedNow = new Date("2030-01-01T00:00:00Z");

/** {@link fixedNow} in seconds since the epoch, as JWT time claims are written. */
export const fixedNowSeconds = Math.floor(fixedNow.getTime() / 1000);

/** A clock for `createAuthCard({ now })` that always answers {@link fixedNow}. */
export const fixedClock = (): Date => fixedNow;

/**
 * Asserts that verifying `card` fails with an {@link AuthenticationError} of `reason` whose
 * message leaks none of `secrets` (the token, the shared secret). Returns the error.
 */
export async function expectRejection(
  card: AuthCard,
  reason: AuthenticationFailure,
  secrets: readonly (string | undefined)[],
): Promise<AuthenticationError> {
  const error: unknown = await card.verify().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(
    AuthenticationError.isInstance(error),
    `expected an AuthenticationError, got ${error}`,
  ).toBe(true);
  const rejection = error as AuthenticationError;
  expect(rejection.reason).toBe(reason);
  expect(rejection.message).toMatch(/^Authentication failed: /);
  for (const secret of secrets) {
    if (secret) expect(rejection.message).not.toContain(secret);
  }
  return rejection;
}
