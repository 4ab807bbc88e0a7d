import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Agent,
  type ChatStreamPart,
  ModelCallError,
  OpenAIChatModel,
  primaryFunction,
} from "@framework/core";
import {
  createCapturingLogger,
  type FakeResponse,
  type FakeServer,
  MockChatModel,
  mockToolCall,
  openAIErrorBody,
  ReliabilityTally,
  startFakeCoinDeskServer,
  startFakeLLMServer,
  startFakeServer,
  startFakeTavilyServer,
  testCoinDeskApiKey,
  testLlmApiKey,
} from "@framework/testing";
import { createBtcMarketDataTool } from "@framework/tools-crypto";
import { createSearchApiTool, createTavilySearch, SearchError } from "@framework/tools-websearch";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { errorDump } from "./support/error-dump.js";

// Upstreams that echo the caller's key back in their error messages (real providers do, in
// 401 texts) must not get it into a thrown error (message, own properties, cause chain), a
// tool's failure text or a log line. The secret guard of every test run checks all output as
// well; here each failure is checked where it is made.
const tally = new ReliabilityTally("secret-leaks");
const tavilyKey = "tvly-secret-leak-suite-5e4d3c2b1a";
const logger = createCapturingLogger();
let dir: string;
const closables: FakeServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "e2e-secrets-"));
});
afterAll(async () => {
  await Promise.all(closables.map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
  for (const line of logger.lines) {
    for (const key of [testLlmApiKey, tavilyKey, testCoinDeskApiKey])
      expect(line).not.toContain(key);
  }
  await tally.flush();
});

const echo = (key: string) =>
  `Incorrect API key provided: ${key}. You sent the header Authorization: Bearer ${key}`;

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error,
  );
}

/** Asserts `key` is nowhere in `error`; `echoed` says the upstream's text made it in, redacted. */
function expectNoKey(error: unknown, key: string, echoed = true): void {
  const dump = errorDump(error);
  expect(dump).not.toContain(key);
  if (echoed) expect(dump).toContain("[REDACTED]");
}

async function llmServer(): Promise<Awaited<ReturnType<typeof startFakeLLMServer>>> {
  const server = await startFakeLLMServer({ apiKey: testLlmApiKey, replies: [] });
  closables.push(server);
  return server;
}

function agentOn(baseURL: string, options: { maxRetries?: number } = {}) {
  const llm = new OpenAIChatModel({
    baseURL,
    apiKey: testLlmApiKey,
    model: "leaky-model",
    retryBaseDelayMs: 1,
    maxRetries: options.maxRetries ?? 1,
    timeoutMs: 60_000,
    logger,
  });
  const agent = new Agent({
    description: "You help.",
    llm,
    toolsPath: join(dir, "tools.json"),
    cwd: dir,
    logger,
  });
  return { agent, llm };
}

describe("ModelCallError never carries the LLM key", () => {
  const echoing: Array<[string, FakeResponse[], boolean]> = [
    [
      "401",
      [{ status: 401, body: openAIErrorBody(echo(testLlmApiKey), "invalid_request_error") }],
      true,
    ],
    [
      "429 after the retries",
      [0, 1].map(() => ({ status: 429, body: openAIErrorBody(echo(testLlmApiKey), "requests") })),
      true,
    ],
    [
      "500 after the retries",
      [0, 1].map(() => ({ status: 500, body: `upstream failed for ${testLlmApiKey}` })),
      true,
    ],
    [
      "a 200 whose body is not a completion",
      [{ status: 200, headers: { "content-type": "application/json" }, body: echo(testLlmApiKey) }],
      false,
    ],
  ];

  it.each(echoing)("on %s, through Agent.invoke", async (_, faults, echoed) => {
    await tally.trial(faults.length, async () => {
      const server = await llmServer();
      server.injectFaults(...faults);
      const error = await failureOf(agentOn(server.baseURL).agent.invoke("hi"));
      expect(ModelCallError.isInstance(error)).toBe(true);
      expectNoKey(error, testLlmApiKey, echoed);
    });
  });

  it("on an error event inside a stream", async () => {
    await tally.trial(1, async () => {
      const server = await llmServer();
      server.injectFaults({
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body: `data: ${JSON.stringify({ error: { message: echo(testLlmApiKey), type: "server_error" } })}\n\n`,
      });
      const { llm } = agentOn(server.baseURL);
      const error = await failureOf(
        (async () => {
          const parts: ChatStreamPart[] = [];
          for await (const part of llm.stream({ messages: [{ role: "user", content: "hi" }] })) {
            parts.push(part);
          }
          return parts;
        })(),
      );
      expect(ModelCallError.isInstance(error)).toBe(true);
      expectNoKey(error, testLlmApiKey);
    });
  });

  it("on a connection refused and a timeout, whose causes come from the network layer", async () => {
    await tally.trial(2, async () => {
      const closed = await startFakeServer(() => ({}));
      await closed.close();
      const refused = await failureOf(agentOn(`${closed.url}/v1`).agent.invoke("hi"));
      expect(ModelCallError.isInstance(refused)).toBe(true);
      expect(errorDump(refused)).not.toContain(testLlmApiKey);

      const server = await llmServer();
      server.injectFaults({ hang: true });
      const llm = new OpenAIChatModel({
        baseURL: server.baseURL,
        apiKey: testLlmApiKey,
        timeoutMs: 100,
        logger,
      });
      const timeout = await failureOf(
        llm.generate({ messages: [{ role: "user", content: "hi" }] }),
      );
      expect(ModelCallError.isInstance(timeout)).toBe(true);
      expect(errorDump(timeout)).not.toContain(testLlmApiKey);
    });
  });
});

describe("web search never shows the Tavily key", () => {
  it("keeps it out of SearchError and out of search_api's failure texts", async () => {
    await tally.trial(4, async () => {
      const tavily = await startFakeTavilyServer({ apiKey: tavilyKey });
      closables.push(tavily);
      vi.stubEnv("TAVILY_API_URL", tavily.url);
      vi.stubEnv("TAVILY_API_KEY", tavilyKey);
      try {
        const unauthorized = (): FakeResponse => ({
          status: 401,
          body: { detail: { error: `Unauthorized: invalid API key ${tavilyKey}` } },
        });
        const failing = (): FakeResponse => ({
          status: 500,
          body: { detail: { error: `Internal Server Error while serving ${tavilyKey}` } },
        });
        tavily.injectFaults(unauthorized(), failing());
        const search = createTavilySearch({ timeoutMs: 60_000 });
        for (const reason of ["unauthorized", "server_error"]) {
          const error = await failureOf(search("bitcoin"));
          expect(SearchError.isInstance(error) && error.reason).toBe(reason);
          expectNoKey(error, tavilyKey);
        }

        tavily.injectFaults(unauthorized(), failing());
        const search_api = createSearchApiTool({ timeoutMs: 60_000 });
        for (const _ of [1, 2]) {
          const text = await search_api({ query: "bitcoin" }, { logger });
          expect(text).toMatch(/^Web search failed/);
          expect(text).not.toContain(tavilyKey);
          expect(text).toContain("[REDACTED]");
        }
      } finally {
        vi.unstubAllEnvs();
      }
    });
  });
});

describe("the BTC tool never shows the CoinDesk key", () => {
  it("keeps it out of its failure text when CoinDesk echoes it, also through an agent", async () => {
    await tally.trial(2, async () => {
      const coindesk = await startFakeCoinDeskServer({ apiKey: testCoinDeskApiKey });
      closables.push(coindesk);
      vi.stubEnv("COINDESK_API_URL", coindesk.url);
      vi.stubEnv("COINDESK_API_KEY", testCoinDeskApiKey);
      try {
        const echoed = (): FakeResponse => ({
          status: 401,
          body: {
            Data: {},
            Err: { type: 1, message: `The key ${testCoinDeskApiKey} is not valid`, other_info: {} },
          },
        });
        coindesk.injectFaults(echoed(), echoed());
        const tool = createBtcMarketDataTool({ timeoutMs: 60_000 });
        const text = await tool({}, { logger });
        expect(text).toBe(
          "Error fetching BTC price: CoinDesk answered HTTP 401 Unauthorized: The key [REDACTED] is not valid",
        );

        const llm = new MockChatModel([
          { toolCalls: [mockToolCall("fetch_btc_market_data")] },
          "ok",
        ]);
        const agent = await Agent.create({
          description: "You track BTC.",
          llm,
          tools: [tool],
          toolsPath: join(dir, "tools.json"),
          cwd: dir,
          logger,
        });
        await agent.invoke("BTC?");
        const sent = JSON.stringify(llm.calls[1]?.messages);
        expect(sent).toContain("[REDACTED]");
        expect(sent).not.toContain(testCoinDeskApiKey);
      } finally {
        vi.unstubAllEnvs();
      }
    });
  });
});

describe("a tool whose own error message holds a key", () => {
  it("sends the model the error with the key redacted", async () => {
    await tally.trial(1, async () => {
      const leaky = primaryFunction(
        { name: "leaky", description: "Fails loudly.", parameters: z.object({}), returns: "str" },
        () => {
          throw new Error(`upstream rejected key ${testLlmApiKey}`);
        },
      );
      const server = await llmServer();
      server.addReplies({ toolCalls: [mockToolCall("leaky")] }, "done");
      const { llm } = agentOn(server.baseURL);
      const agent = await Agent.create({
        description: "You help.",
        llm,
        tools: [leaky],
        toolsPath: join(dir, "tools.json"),
        cwd: dir,
        logger,
      });
      const result = await agent.invoke("hi");
      expect(result.toolCalls[0]?.output).not.toContain(testLlmApiKey);
      expect(JSON.stringify(server.chatRequests[1])).not.toContain(testLlmApiKey);
    });
  });
});
