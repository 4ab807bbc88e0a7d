import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAuthCard, type PublicKeyAlgorithm } from "./auth-card.js";
import type { JwksOptions } from "./remote-key-set.js";
import { expectRejection, fixedClock, fixedNowSeconds } from "./test-jwt.js";

interface SigningKey {
  kid: string;
  alg: PublicKeyAlgorithm;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function signingKey(alg: "RS256" | "ES256"): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const kid = `key-${randomUUID()}`;
  return {
    kid,
    alg,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" },
  };
}

const claims: JWTPayload = {
  sub: "jwks-user",
  iss: "https://id.example.test",
  iat: fixedNowSeconds - 60,
  exp: fixedNowSeconds + 3600,
};

async function sign(key: SigningKey, kid: string = key.kid): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid }).sign(key.privateKey);
}

interface JwksServer {
  url: string;
  /** JWKS requests served so far. */
  requests: number;
  /** Replaces the published keys, as an issuer does when it rotates. */
  publish(keys: readonly SigningKey[]): void;
}

const servers: Server[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) {
    // fetch keeps connections alive; without this, close() would wait for them to time out.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

// Key sets are shared per URL, so every server gets a path of its own.
async function startJwksServer(keys: readonly SigningKey[]): Promise<JwksServer> {
  let published = keys;
  const path = `/${randomUUID()}/jwks.json`;
  const state: JwksServer = {
    url: "",
    requests: 0,
    publish(next) {
      published = next;
    },
  };
  const server = createServer((request, response) => {
    if (request.url !== path) {
      response.writeHead(404).end();
      return;
    }
    state.requests += 1;
    response.writeHead(200, { "content-type": "application/jwk-set+json" });
    response.end(JSON.stringify({ keys: published.map((key) => key.publicJwk) }));
  });
  state.url = `http://127.0.0.1:${await listen(server)}${path}`;
  return state;
}

function jwksCard(token: string, url: string, jwksOptions?: JwksOptions) {
  return createAuthCard({
    token,
    jwksURL: url,
    jwksOptions,
    issuer: "https://id.example.test",
    now: fixedClock,
  });
}

describe("createAuthCard with a JWKS URL", () => {
  // The warning is once per process: nothing before the second test may use jwksUrl.
  it("warns about nothing when given jwksURL", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const key = await signingKey("ES256");
    const server = await startJwksServer([key]);
    expect((await jwksCard(await sign(key), server.url).verify()).userId).toBe("jwks-user");
    expect(warn).not.toHaveBeenCalled();
  });

  it("takes the URL by its deprecated name jwksUrl too, warning once per process", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const key = await signingKey("ES256");
    const server = await startJwksServer([key]);
    const byOldName = { issuer: "https://id.example.test", now: fixedClock, jwksUrl: server.url };
    // Both names at once are refused by the types, but a program in JavaScript may send them.
    const byBothNames = { ...byOldName, jwksURL: server.url } as unknown as typeof byOldName;
    for (const options of [byOldName, byBothNames]) {
      const card = createAuthCard({ token: await sign(key), ...options });
      expect((await card.verify()).userId).toBe("jwks-user");
    }
    expect(warn.mock.calls).toEqual([
      [
        expect.stringContaining("pass the same URL as jwksURL"),
        { type: "DeprecationWarning", code: "FRAMEWORK_AUTH_CARD_JWKS_URL" },
      ],
    ]);
  });

  it.each(["RS256", "ES256"] as const)("accepts a valid %s token", async (alg) => {
    const key = await signingKey(alg);
    const server = await startJwksServer([key]);
    const identity = await jwksCard(await sign(key), server.url).verify();
    expect(identity.userId).toBe("jwks-user");
    expect(server.requests).toBe(1);
  });

  it("fetches the JWKS once for several cards with the same URL", async () => {
    const key = await signingKey("ES256");
    const server = await startJwksServer([key]);
    for (let i = 0; i < 3; i += 1) {
      await jwksCard(await sign(key), server.url).verify();
    }
    expect(server.requests).toBe(1);
  });

  it("after rotation, accepts the new key and rejects the rotated-away one", async () => {
    const oldKey = await signingKey("RS256");
    const newKey = await signingKey("RS256");
    const server = await startJwksServer([oldKey]);
    const options = { cooldownMs: 0 };
    const oldToken = await sign(oldKey);
    expect((await jwksCard(oldToken, server.url, options).verify()).userId).toBe("jwks-user");

    server.publish([newKey]);
    // The unknown kid makes jose fetch the JWKS again, which drops the old key from the cache.
    const newToken = await sign(newKey);
    expect((await jwksCard(newToken, server.url, options).verify()).userId).toBe("jwks-user");
    const error = await expectRejection(
      jwksCard(oldToken, server.url, options),
      "invalid_signature",
      [oldToken],
    );
    expect(error.message).toContain(oldKey.kid);
    expect(server.requests).toBe(3);
  });

  it("rejects a rotated-away key at once when the cache may not be reused", async () => {
    const oldKey = await signingKey("ES256");
    const newKey = await signingKey("ES256");
    const server = await startJwksServer([oldKey]);
    const options = { cacheMaxAgeMs: 0 };
    const oldToken = await sign(oldKey);
    await jwksCard(oldToken, server.url, options).verify();
    server.publish([newKey]);
    await expectRejection(jwksCard(oldToken, server.url, options), "invalid_signature", [oldToken]);
  });

  it("does not refetch for an unknown kid within the cooldown", async () => {
    const key = await signingKey("ES256");
    const server = await startJwksServer([key]);
    await jwksCard(await sign(key), server.url).verify();
    const stranger = await signingKey("ES256");
    const token = await sign(stranger);
    await expectRejection(jwksCard(token, server.url), "invalid_signature", [token]);
    expect(server.requests).toBe(1);
  });

  it("rejects a token whose kid is published but whose signature is forged", async () => {
    const key = await signingKey("RS256");
    const forger = await signingKey("RS256");
    const server = await startJwksServer([key]);
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: key.kid })
      .sign(forger.privateKey);
    await expectRejection(jwksCard(token, server.url), "invalid_signature", [token]);
  });

  it("rejects an HMAC token without fetching the JWKS", async () => {
    const server = await startJwksServer([await signingKey("RS256")]);
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("some-shared-secret-for-hmac"));
    await expectRejection(jwksCard(token, server.url), "unsupported_algorithm", [token]);
    expect(server.requests).toBe(0);
  });

  it("reports key_unavailable when the JWKS server is unreachable", async () => {
    const key = await signingKey("ES256");
    const server = createServer();
    const port = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const token = await sign(key);
    const error = await expectRejection(
      jwksCard(token, `http://127.0.0.1:${port}/jwks.json`),
      "key_unavailable",
      [token],
    );
    expect(error.message).toContain(`http://127.0.0.1:${port}/jwks.json`);
  });

  it("reports key_unavailable when the JWKS server answers with an error", async () => {
    const server = createServer((_request, response) => response.writeHead(500).end());
    const port = await listen(server);
    const token = await sign(await signingKey("ES256"));
    await expectRejection(
      jwksCard(token, `http://127.0.0.1:${port}/jwks.json`),
      "key_unavailable",
      [token],
    );
  });

  it("reports key_unavailable when the JWKS server does not answer in time", async () => {
    const server = createServer(() => {
      // Never answers: the request must time out.
    });
    const port = await listen(server);
    const token = await sign(await signingKey("ES256"));
    const error = await expectRejection(
      jwksCard(token, `http://127.0.0.1:${port}/jwks.json`, { timeoutMs: 200 }),
      "key_unavailable",
      [token],
    );
    expect(error.message).toContain("timed out after 200 ms");
  });
});
