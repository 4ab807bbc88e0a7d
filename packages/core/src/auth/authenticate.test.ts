import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { AuthenticationError } from "../error/authentication-error.js";
import { ConfigurationError } from "../error/configuration-error.js";
import type { Logger } from "../log/logger.js";
import { type AuthCard, createAuthCard } from "./auth-card.js";
import { authenticate, unknownUserId } from "./authenticate.js";
import { fixedClock, fixedNowSeconds } from "./test-jwt.js";

const secret = "authenticate-test-secret-0123456789";

function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: string) => {
    lines.push(`${level} ${message}`);
  };
  return {
    lines,
    debug: record("debug"),
    info: record("info"),
    warn: record("warn"),
    error: record("error"),
  };
}

async function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .sign(new TextEncoder().encode(secret));
}

describe("authenticate", () => {
  it("without a card, logs the skip line and acts as unknown_user", async () => {
    const logger = capturingLogger();
    const context = await authenticate(undefined, logger);
    expect(context).toEqual({ userId: "unknown_user", authenticated: false });
    expect(unknownUserId).toBe("unknown_user");
    expect(logger.lines).toEqual(["info No authentication card provided, skipping authentication"]);
  });

  it("treats a null card like no card", async () => {
    const logger = capturingLogger();
    const context = await authenticate(null as unknown as undefined, logger);
    expect(context.userId).toBe("unknown_user");
    expect(logger.lines).toHaveLength(1);
  });

  it("with a valid card, returns the token's sub and claims and logs nothing", async () => {
    const logger = capturingLogger();
    const authCard = createAuthCard({
      token: await token({ sub: "alice", exp: fixedNowSeconds + 60 }),
      secret,
      now: fixedClock,
    });
    const context = await authenticate(authCard, logger);
    expect(context).toEqual({
      userId: "alice",
      authenticated: true,
      claims: { sub: "alice", exp: fixedNowSeconds + 60 },
    });
    expect(logger.lines).toEqual([]);
  });

  it("with a bad card, throws AuthenticationError without the token or the secret", async () => {
    const logger = capturingLogger();
    const expired = await token({ sub: "alice", exp: fixedNowSeconds - 60 });
    const authCard = createAuthCard({ token: expired, secret, now: fixedClock });
    const error = await authenticate(authCard, logger).catch((failure: unknown) => failure);
    expect(AuthenticationError.isInstance(error)).toBe(true);
    expect((error as AuthenticationError).reason).toBe("expired");
    expect((error as AuthenticationError).message).not.toContain(expired);
    expect((error as AuthenticationError).message).not.toContain(secret);
    expect(logger.lines).toEqual([]);
  });

  it("refuses a card that was not made by createAuthCard", async () => {
    const options = { token: "a.b.c", secret } as unknown as AuthCard;
    const error = await authenticate(options, capturingLogger()).catch(
      (failure: unknown) => failure,
    );
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).message).not.toContain(secret);
  });
});
