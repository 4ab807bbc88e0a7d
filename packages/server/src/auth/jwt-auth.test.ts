import { randomUUID } from "node:crypto";
import { ConfigurationError } from "@framework/core";
import { createCapturingLogger } from "@framework/testing";
import { base64url, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-server.js";
import { type JwtAuthOptions, jwtAuth } from "./jwt-auth.js";
import {
  fixedClock,
  fixedNowSeconds,
  type JwksServer,
  type SigningKey,
  signingKey,
  startJwksServer,
  whoAmIGraph,
} from "./test-auth.js";

const issuer = "https://id.example.test/";
const audience = "https://agents.example.test";

function claims(overrides: JWTPayload = {}): JWTPayload {
  return {
    sub: "alice",
    iss: issuer,
    aud: audience,
    iat: fixedNowSeconds - 60,
    exp: fixedNowSeconds + 3600,
    ...overrides,
  };
}

// RSA keys take a while to generate: the issuer's and a forger's serve every test.
const issuerKey = signingKey();
const forgerKey = signingKey();

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Served {
  server: TestServer;
  jwks: JwksServer;
  key: SigningKey;
}

/** A server authenticating by an RS256 key published as a JWKS on 127.0.0.1. */
async function serve(options: Pick<JwtAuthOptions, "clockToleranceSeconds"> = {}): Promise<Served> {
  const key = await issuerKey;
  const jwks = await startJwksServer([key.publicJwk]);
  cleanups.push(() => jwks.close());
  const server = await startTestServer({
    graphs: { who: whoAmIGraph() },
    auth: jwtAuth({ jwksURL: jwks.url, issuer, audience, now: fixedClock, ...options }),
  });
  cleanups.push(() => server.close());
  return { server, jwks, key };
}

/** Asks the server who the request acts for: a run of a graph that reports its `user_id`. */
function whoAmI(server: TestServer, authorization?: string): Promise<Response> {
  return fetch(`${server.url}/runs/wait`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ assistant_id: "who", input: {} }),
  });
}

async function rejected(
  response: Response,
  status: number,
): Promise<{ type: string; message: string }> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { error: { type: string; message: string } }).error;
}

describe("jwtAuth with a JWKS URL", () => {
  it("acts for the token's sub, fetching the key set once across requests", async () => {
    const { server, jwks, key } = await serve();
    for (const sub of ["alice", "bob", "alice"]) {
      const response = await whoAmI(server, `Bearer ${await key.sign(claims({ sub }))}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ userId: sub });
    }
    expect(jwks.requests).toBe(1);
  });

  it("answers 401 with a Bearer challenge when there is no token, or another scheme", async () => {
    const { server } = await serve();
    for (const authorization of [undefined, "Basic YWxpY2U6c2VjcmV0", "Bearer"]) {
      const response = await whoAmI(server, authorization);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      const error = await rejected(response, 401);
      expect(error.type).toBe("UnauthenticatedError");
    }
  });

  it.each<[string, (key: SigningKey) => Promise<string>, RegExp]>([
    [
      "an expired token",
      (key) => key.sign(claims({ exp: fixedNowSeconds - 60 })),
      /the token expired at 2029-12-31T23:59:00\.000Z/,
    ],
    [
      "a token not valid yet",
      (key) => key.sign(claims({ nbf: fixedNowSeconds + 600 })),
      /not valid before 2030-01-01T00:10:00\.000Z/,
    ],
    [
      "a token from another issuer",
      (key) => key.sign(claims({ iss: "https://evil.example.test/" })),
      /"iss" claim does not match \(expected "https:\/\/id\.example\.test\/"\)/,
    ],
    [
      "a token for another audience",
      (key) => key.sign(claims({ aud: "https://other.example.test" })),
      /"aud" claim does not match/,
    ],
    [
      'an unsigned token (alg "none")',
      async () => {
        const encode = (value: object) => base64url.encode(JSON.stringify(value));
        return `${encode({ alg: "none", typ: "JWT" })}.${encode(claims())}.`;
      },
      /algorithm "none" is not accepted/,
    ],
    [
      "an HS256 token against the RS256 key set",
      async (key) =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: "HS256", kid: key.kid })
          .sign(new TextEncoder().encode(JSON.stringify(key.publicJwk))),
      /algorithm "HS256" is not accepted/,
    ],
    [
      "a token whose kid is not in the key set",
      async () => (await forgerKey).sign(claims()),
      /no key in the JWKS at http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/jwks\.json matches the token/,
    ],
    [
      "a token with a published kid but another key's signature",
      async (key) => (await forgerKey).sign(claims(), key.kid),
      /signature does not verify/,
    ],
    ["a token without sub", (key) => key.sign(claims({ sub: undefined })), /no "sub" claim/],
    ["a token that is not a JWT", async () => "not.a-jwt", /not a well-formed JWT/],
  ])("answers 401 to %s, saying why and not quoting it", async (_case, token, reason) => {
    const { server, key } = await serve();
    const jwt = await token(key);
    const response = await whoAmI(server, `Bearer ${jwt}`);
    const error = await rejected(response, 401);
    expect(error.type).toBe("UnauthenticatedError");
    expect(error.message).toMatch(/^Not authenticated: /);
    expect(error.message).toMatch(reason);
    expect(JSON.stringify(error)).not.toContain(jwt);
  });

  it("accepts a clock skew within clockToleranceSeconds, and not beyond", async () => {
    const { server, key } = await serve({ clockToleranceSeconds: 30 });
    for (const skewed of [{ exp: fixedNowSeconds - 29 }, { nbf: fixedNowSeconds + 29 }]) {
      const response = await whoAmI(server, `Bearer ${await key.sign(claims(skewed))}`);
      expect(response.status).toBe(200);
    }
    for (const skewed of [{ exp: fixedNowSeconds - 31 }, { nbf: fixedNowSeconds + 31 }]) {
      const response = await whoAmI(server, `Bearer ${await key.sign(claims(skewed))}`);
      await rejected(response, 401);
    }
  });

  it("answers 503 without details when the key set cannot be fetched, and logs why", async () => {
    const jwks = await startJwksServer([]);
    const url = jwks.url;
    await jwks.close();
    const logger = createCapturingLogger();
    const server = await startTestServer({
      graphs: { who: whoAmIGraph() },
      auth: jwtAuth({ jwksURL: url, now: fixedClock }),
      logger,
    });
    cleanups.push(() => server.close());
    const token = await (await forgerKey).sign(claims());
    const error = await rejected(await whoAmI(server, `Bearer ${token}`), 503);
    expect(error).toEqual({
      type: "AuthenticationUnavailableError",
      message: "Credentials cannot be checked right now; try again later",
    });
    expect(logger.lines.join("\n")).toContain(`the JWKS at ${url} could not be used`);
    expect(logger.lines.join("\n")).not.toContain(token);
  });
});

describe("jwtAuth's options", () => {
  const request = (token: string) =>
    new Request("http://127.0.0.1/threads", { headers: { authorization: `Bearer ${token}` } });

  it("verifies with a shared secret, refusing public-key algorithms", async () => {
    const secret = `jwt-auth-secret-${randomUUID()}`;
    const auth = jwtAuth({ secret, issuer, now: fixedClock });
    const token = await new SignJWT(claims({ role: "admin" }))
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(secret));
    expect(await auth(request(token))).toEqual({
      id: "alice",
      claims: expect.objectContaining({ sub: "alice", role: "admin", iss: issuer }),
    });
    const rsa = await (await forgerKey).sign(claims());
    await expect(auth(request(rsa))).rejects.toMatchObject({
      name: "UnauthenticatedError",
      status: 401,
      reason: expect.stringMatching(
        /algorithm "RS256" is not accepted \(allowed: HS256, HS384, HS512\)/,
      ),
    });
  });

  it("verifies with a PEM public key, accepting only its key type's algorithms", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const auth = jwtAuth({ publicKey: await exportSPKI(publicKey), audience, now: fixedClock });
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: "ES256" }).sign(privateKey);
    expect((await auth(request(token)))?.id).toBe("alice");
    const other = await (await forgerKey).sign(claims());
    await expect(auth(request(other))).rejects.toMatchObject({
      reason: expect.stringMatching(/algorithm "RS256" is not accepted \(allowed: ES256\)/),
    });
  });

  it("takes the user id from another claim when told to, refusing a token without it", async () => {
    const secret = `jwt-auth-secret-${randomUUID()}`;
    const auth = jwtAuth({
      secret,
      now: fixedClock,
      userId: (verified) => (typeof verified.email === "string" ? verified.email : undefined),
    });
    const sign = (payload: JWTPayload) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode(secret));
    const user = await auth(request(await sign(claims({ email: "alice@example.test" }))));
    expect(user?.id).toBe("alice@example.test");
    expect(user?.claims?.sub).toBe("alice");
    await expect(auth(request(await sign(claims())))).rejects.toMatchObject({
      reason: "the token's claims name no user",
    });
  });

  it("answers null for a request without an Authorization header", async () => {
    const auth = jwtAuth({ secret: `jwt-auth-secret-${randomUUID()}` });
    expect(await auth(new Request("http://127.0.0.1/threads"))).toBeNull();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["no key option", {}, "jwtAuth"],
    [
      "two key options",
      { secret: "s".repeat(32), jwksURL: "https://id.example.test/jwks" },
      "jwtAuth",
    ],
    ["an invalid JWKS URL", { jwksURL: "not a url" }, "jwtAuth.jwksURL"],
    [
      "an algorithm of another key kind",
      { secret: "s".repeat(32), algorithms: ["RS256"] },
      "jwtAuth.algorithms",
    ],
    [
      "a negative clock tolerance",
      { secret: "s".repeat(32), clockToleranceSeconds: -1 },
      "jwtAuth.clockToleranceSeconds",
    ],
  ])("refuses %s, naming the option", (_case, options, setting) => {
    let thrown: unknown;
    try {
      jwtAuth(options as unknown as JwtAuthOptions);
    } catch (error) {
      thrown = error;
    }
    expect(ConfigurationError.isInstance(thrown)).toBe(true);
    expect((thrown as ConfigurationError).setting).toBe(setting);
  });
});
