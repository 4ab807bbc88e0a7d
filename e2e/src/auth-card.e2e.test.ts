import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Agent,
  type AuthCard,
  AuthenticationError,
  type AuthenticationFailure,
  type ChatModel,
  createAuthCard,
  OpenAIChatModel,
} from "@framework/core";
import {
  createCapturingLogger,
  type FakeLLMServer,
  type FakeServer,
  MockChatModel,
  ReliabilityTally,
  startFakeLLMServer,
  startFakeServer,
  testJwtSecret,
  testLlmApiKey,
} from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorDump } from "./support/error-dump.js";
import {
  es256SigningKey,
  type SigningKey,
  signEs256,
  signHs256,
  unsignedJwt,
} from "./support/test-jwt.js";

// Authentication cards through the Agent: every kind of bad token is rejected with an
// AuthenticationError before the model is asked anything, whether the model is a mock or the
// real client on a fake server (which must then have received no request at all).
const tally = new ReliabilityTally("auth-cards");
const issuer = "https://id.example.test";
const audience = "research-agent";
const now = () => Math.floor(Date.now() / 1000);
const claims = (extra: Record<string, unknown> = {}) => ({
  sub: "alice",
  iss: issuer,
  aud: audience,
  iat: now() - 60,
  exp: now() + 3_600,
  ...extra,
});

let dir: string;
let llmServer: FakeLLMServer;
let jwksServer: FakeServer;
let published: SigningKey[] = [];
const jwksPath = `/${randomUUID()}/jwks.json`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "e2e-auth-"));
  llmServer = await startFakeLLMServer({ apiKey: testLlmApiKey, defaultReply: "Hello, Alice." });
  jwksServer = await startFakeServer((request) =>
    request.path === jwksPath
      ? { body: { keys: published.map((key) => key.publicJwk) } }
      : { status: 404, body: "not found" },
  );
});
afterAll(async () => {
  await Promise.all([llmServer.close(), jwksServer.close()]);
  await rm(dir, { recursive: true, force: true });
  await tally.flush();
});

const secretCard = (token: string) =>
  createAuthCard({ token, secret: testJwtSecret, issuer, audience });
const jwksCard = (token: string) =>
  createAuthCard({
    token,
    jwksURL: `${jwksServer.url}${jwksPath}`,
    jwksOptions: { cooldownMs: 0 },
    issuer,
    audience,
  });

function agentWith(llm: ChatModel, authCard: AuthCard) {
  return new Agent({
    description: "You greet people.",
    llm,
    authCard,
    toolsPath: join(dir, "tools.json"),
    cwd: dir,
    logger: createCapturingLogger(),
  });
}

/**
 * Invokes an agent holding `card` twice, on a MockChatModel and on OpenAIChatModel against the
 * fake server, and expects both to reject with `reason` without a single model call.
 */
async function expectRejected(card: AuthCard, reason: AuthenticationFailure, token: string) {
  await tally.trial(1, async () => {
    const mock = new MockChatModel(["never"]);
    const requestsBefore = llmServer.requests.length;
    const real = new OpenAIChatModel({ baseURL: llmServer.baseURL, apiKey: testLlmApiKey });
    for (const llm of [mock, real]) {
      const error = await agentWith(llm, card)
        .invoke("Hello!", { userId: "mallory" })
        .then(
          () => undefined,
          (failure: unknown) => failure,
        );
      expect(AuthenticationError.isInstance(error), `got ${String(error)}`).toBe(true);
      expect((error as AuthenticationError).reason).toBe(reason);
      const dump = errorDump(error);
      expect(dump).not.toContain(token);
      expect(dump).not.toContain(testJwtSecret);
    }
    expect(mock.calls).toHaveLength(0);
    expect(llmServer.requests.length - requestsBefore).toBe(0);
  });
}

describe("an Agent with a shared-secret card", () => {
  it("answers as the token's subject when the token is good", async () => {
    const result = await agentWith(
      new OpenAIChatModel({ baseURL: llmServer.baseURL, apiKey: testLlmApiKey }),
      secretCard(signHs256(claims(), testJwtSecret)),
    ).invoke("Hello!", { userId: "mallory" });
    expect(result.content).toBe("Hello, Alice.");
  });

  it.each<[string, () => string, AuthenticationFailure]>([
    ["expired", () => signHs256(claims({ exp: now() - 60 }), testJwtSecret), "expired"],
    [
      "not yet valid",
      () => signHs256(claims({ nbf: now() + 600 }), testJwtSecret),
      "not_yet_valid",
    ],
    [
      "signed with another secret",
      () => signHs256(claims(), "a-different-secret-of-enough-length-000000"),
      "invalid_signature",
    ],
    ["unsigned (alg: none)", () => unsignedJwt(claims()), "unsupported_algorithm"],
    [
      "from another issuer",
      () => signHs256(claims({ iss: "https://evil.example.test" }), testJwtSecret),
      "claim_mismatch",
    ],
    [
      "for another audience",
      () => signHs256(claims({ aud: "billing" }), testJwtSecret),
      "claim_mismatch",
    ],
    ["without a subject", () => signHs256(claims({ sub: "" }), testJwtSecret), "missing_subject"],
    ["not a JWT at all", () => "not-a-jwt", "malformed"],
  ])("rejects a token %s before any model call", async (_, makeToken, reason) => {
    const token = makeToken();
    await expectRejected(secretCard(token), reason, token);
  });
});

describe("an Agent with a JWKS card", () => {
  it("accepts the issuer's current key, and rejects a key it rotated away, with no model call", async () => {
    const oldKey = es256SigningKey();
    const newKey = es256SigningKey();
    published = [oldKey];
    const oldToken = signEs256(claims(), oldKey);
    const real = () => new OpenAIChatModel({ baseURL: llmServer.baseURL, apiKey: testLlmApiKey });
    await expect(agentWith(real(), jwksCard(oldToken)).invoke("Hi")).resolves.toMatchObject({
      content: "Hello, Alice.",
    });

    // The issuer rotates: the new key is fetched when a token names it, and the old one is gone.
    published = [newKey];
    const newToken = signEs256(claims(), newKey);
    await expect(agentWith(real(), jwksCard(newToken)).invoke("Hi")).resolves.toMatchObject({
      content: "Hello, Alice.",
    });
    await expectRejected(jwksCard(oldToken), "invalid_signature", oldToken);
  });

  it("rejects a token signed by a key the issuer never published", async () => {
    published = [es256SigningKey()];
    const token = signEs256(claims(), es256SigningKey());
    await expectRejected(jwksCard(token), "invalid_signature", token);
  });

  it("rejects an HMAC token offered to a JWKS card (algorithm confusion)", async () => {
    const token = signHs256(claims(), testJwtSecret);
    await expectRejected(jwksCard(token), "unsupported_algorithm", token);
  });
});
