import { base64url, CompactSign, type JWTPayload, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../error/configuration-error.js";
import { redactSecrets } from "../log/redact.js";
import { type AuthCardOptions, createAuthCard, type HmacAlgorithm } from "./auth-card.js";
import { expectRejection, fixedClock, fixedNowSeconds } from "./test-jwt.js";

const secret = "test-shared-secret-0123456789-abcdef";
const otherSecret = "another-shared-secret-9876543210-zyx";

async function sign(
  claims: JWTPayload,
  options: { key?: string; alg?: HmacAlgorithm } = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? "HS256", typ: "JWT" })
    .sign(new TextEncoder().encode(options.key ?? secret));
}

function validClaims(overrides: JWTPayload = {}): JWTPayload {
  return {
    sub: "user-42",
    iss: "https://id.example.test",
    aud: "framework-agents",
    iat: fixedNowSeconds - 60,
    exp: fixedNowSeconds + 3600,
    ...overrides,
  };
}

function card(token: string, options: Partial<AuthCardOptions> = {}) {
  return createAuthCard({ token, secret, now: fixedClock, ...options } as AuthCardOptions);
}

function unsigned(header: object, payload: object): string {
  const encode = (value: object) => base64url.encode(JSON.stringify(value));
  return `${encode(header)}.${encode(payload)}.`;
}

describe("createAuthCard with a shared secret", () => {
  it("accepts a valid HS256 token and takes the user id from sub", async () => {
    const token = await sign(validClaims());
    const identity = await card(token, {
      issuer: "https://id.example.test",
      audience: "framework-agents",
    }).verify();
    expect(identity.userId).toBe("user-42");
    expect(identity.claims).toMatchObject({ sub: "user-42", aud: "framework-agents" });
  });

  it("accepts HS384 and HS512 by default and a Uint8Array secret", async () => {
    for (const alg of ["HS384", "HS512"] as const) {
      const token = await sign(validClaims(), { alg });
      const identity = await createAuthCard({
        token,
        secret: new TextEncoder().encode(secret),
        now: fixedClock,
      }).verify();
      expect(identity.userId).toBe("user-42");
    }
  });

  it("rejects an algorithm left out of `algorithms`", async () => {
    const token = await sign(validClaims(), { alg: "HS512" });
    const error = await expectRejection(
      card(token, { algorithms: ["HS256"] }),
      "unsupported_algorithm",
      [token, secret],
    );
    expect(error.message).toContain('"HS512"');
  });

  it("rejects an expired token", async () => {
    const token = await sign(validClaims({ exp: fixedNowSeconds - 1 }));
    const error = await expectRejection(card(token), "expired", [token, secret]);
    expect(error.message).toContain(new Date((fixedNowSeconds - 1) * 1000).toISOString());
  });

  it("accepts a just-expired token within the clock tolerance", async () => {
    const token = await sign(validClaims({ exp: fixedNowSeconds - 5 }));
    const identity = await card(token, { clockToleranceSeconds: 30 }).verify();
    expect(identity.userId).toBe("user-42");
  });

  it("rejects a token that is not yet valid", async () => {
    const token = await sign(validClaims({ nbf: fixedNowSeconds + 600 }));
    await expectRejection(card(token), "not_yet_valid", [token, secret]);
  });

  it("rejects a token signed with another secret", async () => {
    const token = await sign(validClaims(), { key: otherSecret });
    await expectRejection(card(token), "invalid_signature", [token, secret, otherSecret]);
  });

  it('rejects an unsigned token with alg "none"', async () => {
    const token = unsigned({ alg: "none", typ: "JWT" }, validClaims());
    const error = await expectRejection(card(token), "unsupported_algorithm", [token, secret]);
    expect(error.message).toContain('"none"');
  });

  it('rejects alg "none" even when the header is otherwise a valid HMAC token\'s', async () => {
    const signed = await sign(validClaims());
    const [, payload, signature] = signed.split(".");
    const token = `${base64url.encode(JSON.stringify({ alg: "none" }))}.${payload}.${signature}`;
    await expectRejection(card(token), "unsupported_algorithm", [token, secret]);
  });

  it("rejects a token from another issuer, or with none, when an issuer is configured", async () => {
    const wrong = await sign(validClaims({ iss: "https://evil.example.test" }));
    const error = await expectRejection(
      card(wrong, { issuer: "https://id.example.test" }),
      "claim_mismatch",
      [wrong, secret],
    );
    expect(error.message).toContain('"iss"');
    expect(error.message).toContain('"https://id.example.test"');
    const missing = await sign(validClaims({ iss: undefined }));
    await expectRejection(card(missing, { issuer: "https://id.example.test" }), "claim_mismatch", [
      missing,
      secret,
    ]);
  });

  it("rejects a token for another audience and accepts one of several audiences", async () => {
    const token = await sign(validClaims({ aud: "another-service" }));
    const error = await expectRejection(
      card(token, { audience: "framework-agents" }),
      "claim_mismatch",
      [token, secret],
    );
    expect(error.message).toContain('"aud"');
    const identity = await card(token, {
      audience: ["framework-agents", "another-service"],
    }).verify();
    expect(identity.userId).toBe("user-42");
  });

  it("rejects a token without sub, or with an empty one", async () => {
    for (const sub of [undefined, ""]) {
      const token = await sign(validClaims({ sub }));
      await expectRejection(card(token), "missing_subject", [token, secret]);
    }
  });

  it("rejects malformed token strings", async () => {
    const signed = await sign(validClaims());
    const [header] = signed.split(".");
    // Correctly signed, so that it is the claims set and not the signature that fails.
    const notJson = await new CompactSign(new TextEncoder().encode("not json"))
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(secret));
    for (const token of ["", "not-a-jwt", "a.b.c", `${header}.${signed}`, notJson]) {
      await expectRejection(card(token), "malformed", [
        token.length >= 6 ? token : undefined,
        secret,
      ]);
    }
  });

  it("rejects a time claim of the wrong type as malformed", async () => {
    const token = await sign(validClaims({ exp: "tomorrow" as unknown as number }));
    await expectRejection(card(token), "malformed", [token, secret]);
  });

  it("keeps the token out of the card and registers token and secret for redaction", async () => {
    const token = await sign(validClaims());
    const authCard = card(token);
    expect(JSON.stringify(authCard)).not.toContain(token);
    expect(Object.values(authCard)).not.toContain(token);
    expect(redactSecrets(`token=${token} secret=${secret}`)).toBe(
      "token=[REDACTED] secret=[REDACTED]",
    );
  });
});

describe("createAuthCard configuration", () => {
  const token = "header.payload.signature";

  it.each([
    ["neither secret nor jwksURL", { token }, "authCard"],
    [
      "both secret and jwksURL",
      { token, secret, jwksURL: "https://id.example.test/jwks" },
      "authCard",
    ],
    [
      "both secret and the deprecated jwksUrl",
      { token, secret, jwksUrl: "https://id.example.test/jwks" },
      "authCard",
    ],
    [
      "jwksURL and the deprecated jwksUrl naming different URLs",
      {
        token,
        jwksURL: "https://id.example.test/jwks",
        jwksUrl: "https://other.example.test/jwks",
      },
      "authCard.jwksURL",
    ],
    ["an empty secret", { token, secret: "" }, "authCard.secret"],
    ["an empty byte secret", { token, secret: new Uint8Array() }, "authCard.secret"],
    [
      "an asymmetric algorithm with a secret",
      { token, secret, algorithms: ["RS256"] },
      "authCard.algorithms",
    ],
    [
      "an HMAC algorithm with a JWKS",
      { token, jwksURL: "https://id.example.test/jwks", algorithms: ["HS256"] },
      "authCard.algorithms",
    ],
    ['"none" as an algorithm', { token, secret, algorithms: ["none"] }, "authCard.algorithms"],
    ["an empty algorithm list", { token, secret, algorithms: [] }, "authCard.algorithms"],
    ["an invalid JWKS URL", { token, jwksURL: "not a url" }, "authCard.jwksURL"],
    [
      "a JWKS URL that is not http(s)",
      { token, jwksURL: "file:///etc/jwks.json" },
      "authCard.jwksURL",
    ],
    [
      "a JWKS URL with credentials",
      { token, jwksURL: "https://user:pass@id.example.test/jwks" },
      "authCard.jwksURL",
    ],
    [
      "a negative JWKS cooldown",
      { token, jwksURL: "https://id.example.test/jwks", jwksOptions: { cooldownMs: -1 } },
      "authCard.jwksOptions",
    ],
    ["an empty issuer", { token, secret, issuer: "" }, "authCard.issuer"],
    ["an empty audience list", { token, secret, audience: [] }, "authCard.audience"],
    [
      "a negative clock tolerance",
      { token, secret, clockToleranceSeconds: -1 },
      "authCard.clockToleranceSeconds",
    ],
  ])("refuses %s", (_case, options, setting) => {
    let thrown: unknown;
    try {
      createAuthCard(options as unknown as AuthCardOptions);
    } catch (error) {
      thrown = error;
    }
    expect(ConfigurationError.isInstance(thrown)).toBe(true);
    expect((thrown as ConfigurationError).setting).toBe(setting);
    expect((thrown as ConfigurationError).message).not.toContain(secret);
  });
});
