import { KeyObject, randomUUID, type webcrypto } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  base64url,
  type CryptoKey,
  exportJWK,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  type JWTPayload,
  SignJWT,
} from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { AuthenticationError, type AuthenticationFailure } from "../error/authentication-error.js";
import { ConfigurationError } from "../error/configuration-error.js";
import { fixedClock, fixedNowSeconds } from "./test-jwt.js";
import {
  createTokenVerifier,
  type PublicKeyAlgorithm,
  type TokenVerifier,
  type TokenVerifierOptions,
} from "./token-verifier.js";

const secret = "verifier-shared-secret-0123456789-abcdef";

function claims(overrides: JWTPayload = {}): JWTPayload {
  return { sub: "user-7", iat: fixedNowSeconds - 60, exp: fixedNowSeconds + 3600, ...overrides };
}

function signHmac(payload: JWTPayload, key = secret): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256" })
    .sign(new TextEncoder().encode(key));
}

async function rejection(
  verifier: TokenVerifier,
  token: string,
  reason: AuthenticationFailure,
): Promise<AuthenticationError> {
  const error: unknown = await verifier.verify(token).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(AuthenticationError.isInstance(error), `expected a rejection, got ${error}`).toBe(true);
  const rejected = error as AuthenticationError;
  expect(rejected.reason).toBe(reason);
  if (token !== "") expect(rejected.message).not.toContain(token);
  return rejected;
}

function configurationErrorOf(
  options: TokenVerifierOptions,
  settingPrefix?: string,
): ConfigurationError {
  try {
    createTokenVerifier(options, settingPrefix);
  } catch (error) {
    expect(ConfigurationError.isInstance(error)).toBe(true);
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError");
}

async function keyPair(alg: PublicKeyAlgorithm) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const sign = (payload: JWTPayload = claims(), header: { kid?: string } = {}) =>
    new SignJWT(payload).setProtectedHeader({ alg, ...header }).sign(privateKey);
  return { publicKey, privateKey, sign };
}

describe("createTokenVerifier", () => {
  it("verifies one token after another with the same configuration", async () => {
    const verifier = createTokenVerifier({ secret, now: fixedClock });
    for (const sub of ["alice", "bob"]) {
      const identity = await verifier.verify(await signHmac(claims({ sub, role: "admin" })));
      expect(identity).toEqual({ userId: sub, claims: expect.objectContaining({ sub }) });
      expect(identity.claims.role).toBe("admin");
    }
    await rejection(
      verifier,
      await signHmac(claims(), "another-secret-entirely"),
      "invalid_signature",
    );
    await rejection(verifier, "", "malformed");
  });

  it('refuses alg "none" whatever the key', async () => {
    const encode = (value: object) => base64url.encode(JSON.stringify(value));
    const token = `${encode({ alg: "none" })}.${encode(claims())}.`;
    const { publicKey } = await keyPair("RS256");
    for (const verifier of [
      createTokenVerifier({ secret, now: fixedClock }),
      createTokenVerifier({ publicKey, now: fixedClock }),
    ]) {
      const error = await rejection(verifier, token, "unsupported_algorithm");
      expect(error.message).toContain('"none"');
    }
  });

  describe("with a public key", () => {
    it.each(["RS256", "PS384", "ES256", "ES512", "EdDSA"] as const)(
      "accepts a %s token against the key as PEM, JWK, CryptoKey or KeyObject",
      async (alg) => {
        const { publicKey, sign } = await keyPair(alg);
        const token = await sign();
        const forms = [
          await exportSPKI(publicKey),
          await exportJWK(publicKey),
          publicKey,
          KeyObject.from(publicKey as webcrypto.CryptoKey),
        ];
        for (const form of forms) {
          const identity = await createTokenVerifier({ publicKey: form, now: fixedClock }).verify(
            token,
          );
          expect(identity.userId).toBe("user-7");
        }
      },
    );

    it("accepts only the algorithms of the key's type by default", async () => {
      const rsa = await keyPair("RS256");
      const verifier = createTokenVerifier({ publicKey: rsa.publicKey, now: fixedClock });
      const ec = await keyPair("ES256");
      const error = await rejection(verifier, await ec.sign(), "unsupported_algorithm");
      expect(error.message).toContain("(allowed: RS256, RS384, RS512, PS256, PS384, PS512)");
      // The classic confusion: an HMAC token keyed with the public key's own PEM text.
      const pem = await exportSPKI(rsa.publicKey);
      const confused = await signHmac(claims(), pem);
      await rejection(
        createTokenVerifier({ publicKey: pem, now: fixedClock }),
        confused,
        "unsupported_algorithm",
      );
      const p384 = await keyPair("ES384");
      await rejection(
        createTokenVerifier({ publicKey: (await keyPair("ES256")).publicKey, now: fixedClock }),
        await p384.sign(),
        "unsupported_algorithm",
      );
    });

    it("rejects a token signed by another key of the same kind", async () => {
      const { publicKey } = await keyPair("ES256");
      const forger = await keyPair("ES256");
      const error = await rejection(
        createTokenVerifier({ publicKey, now: fixedClock }),
        await forger.sign(),
        "invalid_signature",
      );
      expect(error.message).toContain("the configured public key");
    });

    it("refuses private keys, unreadable keys and algorithms the key cannot check", async () => {
      const { publicKey, privateKey } = await keyPair("RS256");
      const privatePem = await exportPKCS8(privateKey);
      const privateJwk = await exportJWK(privateKey);
      for (const key of [privatePem, privateJwk, privateKey as CryptoKey]) {
        const error = configurationErrorOf({ publicKey: key });
        expect(error.setting).toBe("tokenVerifier.publicKey");
        expect(error.message).not.toContain(privatePem);
      }
      const garbled = "-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----";
      const unreadable = configurationErrorOf({ publicKey: garbled });
      expect(unreadable.setting).toBe("tokenVerifier.publicKey");
      expect(unreadable.message).not.toContain("bm90IGEga2V5");
      expect(configurationErrorOf({ publicKey, algorithms: ["ES256"] }).setting).toBe(
        "tokenVerifier.algorithms",
      );
    });
  });

  describe("with a JWKS URL", () => {
    const servers: ReturnType<typeof createServer>[] = [];
    afterAll(async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it("fetches the key set once for every token it verifies", async () => {
      const { publicKey, sign } = await keyPair("ES256");
      const kid = randomUUID();
      const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid }] });
      let requests = 0;
      const server = createServer((_request, response) => {
        requests += 1;
        response.writeHead(200, { "content-type": "application/json" }).end(jwks);
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      const verifier = createTokenVerifier({
        jwksURL: new URL(`http://127.0.0.1:${port}/${randomUUID()}/jwks.json`),
        now: fixedClock,
      });
      for (const sub of ["a", "b", "c"]) {
        const token = await sign(claims({ sub }), { kid });
        expect((await verifier.verify(token)).userId).toBe(sub);
      }
      expect(requests).toBe(1);
    });
  });

  it("names its settings after the given prefix", () => {
    expect(configurationErrorOf({ secret: "" }, "jwtAuth").setting).toBe("jwtAuth.secret");
    expect(configurationErrorOf({ jwksURL: "not a url" }).setting).toBe("tokenVerifier.jwksURL");
    const both = { secret, jwksURL: "https://id.example.test/jwks" } as unknown;
    expect(configurationErrorOf(both as TokenVerifierOptions).setting).toBe("tokenVerifier");
    expect(configurationErrorOf({} as TokenVerifierOptions, "jwtAuth").setting).toBe("jwtAuth");
  });
});
