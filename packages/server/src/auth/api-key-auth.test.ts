import { ConfigurationError, redactSecrets } from "@framework/core";
import { Client } from "@langchain/langgraph-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-server.js";
import { type ApiKeyAuthOptions, apiKeyAuth } from "./api-key-auth.js";
import { whoAmIGraph } from "./test-auth.js";

const aliceKey = "sk-alice-7f3c9a1e5b2d4f60a8c1e3b5d7f9a2c4";
const bobKey = "sk-bob-0e2d4c6b8a9f1e3d5c7b9a0f2e4d6c8b";

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(keys: ApiKeyAuthOptions["keys"]): Promise<TestServer> {
  running = await startTestServer({ graphs: { who: whoAmIGraph() }, auth: apiKeyAuth({ keys }) });
  return running;
}

interface WhoAmIAnswer {
  status: number;
  body: { userId?: string; error?: { type: string; message: string } };
}

/** Who a request with `headers` acts for, as the graph's node sees it; or the error answer. */
async function whoAmI(server: TestServer, headers: Record<string, string>): Promise<WhoAmIAnswer> {
  const response = await fetch(`${server.url}/runs/wait`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ assistant_id: "who", input: {} }),
  });
  return { status: response.status, body: (await response.json()) as WhoAmIAnswer["body"] };
}

describe("apiKeyAuth", () => {
  it("acts for the key's user, from x-api-key or a Bearer header", async () => {
    const server = await serve({ [aliceKey]: "alice", [bobKey]: "bob" });
    expect(await whoAmI(server, { "x-api-key": aliceKey })).toEqual({
      status: 200,
      body: expect.objectContaining({ userId: "alice" }),
    });
    expect((await whoAmI(server, { authorization: `Bearer ${bobKey}` })).body.userId).toBe("bob");
  });

  it("works with @langchain/langgraph-sdk's Client({ apiKey })", async () => {
    const server = await serve(new Map([[aliceKey, "alice"]]));
    const client = new Client({ apiUrl: server.url, apiKey: aliceKey });
    const thread = await client.threads.create();
    expect(await client.runs.wait(thread.thread_id, "who", { input: {} })).toMatchObject({
      userId: "alice",
    });
    const stranger = new Client({ apiUrl: server.url, apiKey: bobKey });
    await expect(stranger.threads.create()).rejects.toThrow(/401/);
  });

  it("answers 401 to a missing key and to any key it was not given", async () => {
    const server = await serve({ [aliceKey]: "alice" });
    const missing = await whoAmI(server, {});
    expect(missing.status).toBe(401);
    expect(missing.body.error?.message).toBe(
      "Not authenticated: no credentials the server accepts",
    );
    for (const key of [bobKey, aliceKey.slice(0, -1), `${aliceKey}0`, aliceKey.toUpperCase()]) {
      const answer = await whoAmI(server, { "x-api-key": key });
      expect(answer.status).toBe(401);
      expect(answer.body.error).toEqual({
        type: "UnauthenticatedError",
        message: "Not authenticated: the API key is not accepted",
      });
      expect(JSON.stringify(answer.body)).not.toContain(key);
    }
  });

  it("asks a lookup function, which may attach claims", async () => {
    const server = await serve(async (key) =>
      key === bobKey ? { id: "bob", claims: { plan: "team" } } : null,
    );
    expect((await whoAmI(server, { "x-api-key": bobKey })).body.userId).toBe("bob");
    expect((await whoAmI(server, { "x-api-key": aliceKey })).status).toBe(401);
  });

  it("registers its keys as secrets, so log lines never show them", () => {
    apiKeyAuth({ keys: { [aliceKey]: "alice" } });
    expect(redactSecrets(`x-api-key: ${aliceKey}`)).toBe("x-api-key: [REDACTED]");
  });

  it.each<[string, ApiKeyAuthOptions["keys"]]>([
    ["no keys", {}],
    ["an empty key", { "": "alice" }],
    ["an empty user id", { [aliceKey]: "" }],
  ])("refuses %s", (_case, keys) => {
    let thrown: unknown;
    try {
      apiKeyAuth({ keys });
    } catch (error) {
      thrown = error;
    }
    expect(ConfigurationError.isInstance(thrown)).toBe(true);
    expect((thrown as ConfigurationError).setting).toBe("apiKeyAuth.keys");
  });
});
