import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import {
  Agent,
  createAuthCard,
  OpenAIChatModel,
  primaryFunction,
  setDefaultLogger,
} from "@framework/core";
import {
  createCapturingLogger,
  MockChatModel,
  mockToolCall,
  ReliabilityTally,
} from "@framework/testing";
import { fetch_btc_market_data } from "@framework/tools-crypto";
import { fetch_stock_data } from "@framework/tools-finance";
import { paper_research } from "@framework/tools-papers";
import { search_api } from "@framework/tools-websearch";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";

// A random key is planted in every place the framework is configured from, a different one in
// each place, so that no place is protected by another's redaction: API keys in options and in
// the environment, the userinfo and credential query parameters of every base URL, an
// authentication card, a tool's error and its cause. Then every path that reports a failure
// runs (each upstream on a port where nothing listens), and everything that came out is
// searched for every key: every log line, every tool result and message the model was sent,
// and every thrown error with all its properties, its stack and its cause chain.
const tally = new ReliabilityTally("secret-planting");
afterAll(() => tally.flush());

let dir: string;
let deadPort: number;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "e2e-planting-"));
  // A port that was just free: connecting to it is refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  deadPort = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

/** Every string reachable from `value`: own properties (hidden ones too), stacks, causes. */
function everything(value: unknown, seen = new Set<unknown>(), depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object" || seen.has(value) || depth > 12) return [];
  seen.add(value);
  const texts = [inspect(value, { depth: 12, showHidden: true })];
  if (value instanceof Error) texts.push(value.message, value.stack ?? "");
  for (const key of Reflect.ownKeys(value)) {
    let item: unknown;
    try {
      item = (value as Record<PropertyKey, unknown>)[key];
    } catch {
      continue;
    }
    texts.push(...everything(item, seen, depth + 1));
  }
  return texts;
}

const keyArbitrary = fc.stringMatching(/^[A-Za-z0-9]{24,40}$/).map((body) => `pk${body}`);

const places = [
  "llmOption",
  "llmEnv",
  "llmUrl",
  "llmUrlQuery",
  "coindeskEnv",
  "coindeskUrl",
  "tavilyEnv",
  "tavilyUrl",
  "yahooUrl",
  "yahooUrlQuery",
  "arxivUrl",
  "cardToken",
  "cardSecret",
  "toolUrl",
  "toolCause",
] as const;
type Keys = Record<(typeof places)[number], string>;

async function runEverywhere(keys: Keys): Promise<string[]> {
  const logger = createCapturingLogger();
  const previousDefault = setDefaultLogger(logger);
  const dead = `http://127.0.0.1:${deadPort}`;
  const withCredentials = (password: string, token: string, path = "") =>
    `http://planted:${password}@127.0.0.1:${deadPort}${path}?api_key=${token}&token=${token}`;
  vi.stubEnv("LLM_API_KEY", keys.llmEnv);
  vi.stubEnv("LLM_API_URL", withCredentials(keys.llmUrl, keys.llmUrlQuery, "/v1"));
  vi.stubEnv("COINDESK_API_KEY", keys.coindeskEnv);
  vi.stubEnv("COINDESK_API_URL", `${dead}/?key=${keys.coindeskUrl}`);
  vi.stubEnv("TAVILY_API_KEY", keys.tavilyEnv);
  vi.stubEnv("TAVILY_API_URL", `http://user:${keys.tavilyUrl}@127.0.0.1:${deadPort}`);
  vi.stubEnv("YAHOO_FINANCE_URL", withCredentials(keys.yahooUrl, keys.yahooUrlQuery));
  vi.stubEnv("ARXIV_API_URL", `${dead}/?access_token=${keys.arxivUrl}`);
  const outputs: unknown[] = [];
  const failures: unknown[] = [];
  const attempt = async (run: () => Promise<unknown>) => {
    try {
      outputs.push(await run());
    } catch (error) {
      failures.push(error);
    }
  };
  try {
    // The model itself, called through its URL with credentials and through an agent.
    const fromEnv = new OpenAIChatModel({ maxRetries: 0, timeoutMs: 60_000, logger });
    await attempt(() => fromEnv.generate({ messages: [{ role: "user", content: "hi" }] }));
    const fromOptions = new OpenAIChatModel({
      apiKey: keys.llmOption,
      baseURL: dead,
      maxRetries: 0,
      timeoutMs: 60_000,
      logger,
    });
    await attempt(() => fromOptions.generate({ messages: [{ role: "user", content: "hi" }] }));
    await attempt(async () => {
      const parts: unknown[] = [];
      for await (const part of fromEnv.stream({ messages: [{ role: "user", content: "hi" }] })) {
        parts.push(part);
      }
      return parts;
    });
    // Each tool through an agent, so its failure reaches the model and the agent's log.
    const leaky = primaryFunction(
      { name: "leaky", description: "Fails with a URL.", parameters: z.object({}), returns: "str" },
      async () => {
        throw new Error(`GET ${withCredentials(keys.toolUrl, keys.toolUrl, "/data")} failed`, {
          cause: new Error(`401 for Authorization: Bearer ${keys.toolCause}`),
        });
      },
    );
    const llm = new MockChatModel([
      {
        toolCalls: [
          mockToolCall("fetch_btc_market_data", {}),
          mockToolCall("fetch_stock_data", { symbol: "AAPL", period: "5d" }),
          mockToolCall("paper_research", { topic: "agents" }),
          mockToolCall("search_api", { query: "agents" }),
          mockToolCall("leaky", {}),
        ],
      },
      "done",
    ]);
    const agent = new Agent({
      description: "You help.",
      llm,
      tools: [fetch_btc_market_data, fetch_stock_data, paper_research, search_api, leaky],
      toolsPath: false,
      cwd: dir,
      logger,
    });
    await attempt(() => agent.invoke("Everything, please."));
    outputs.push(llm.calls);
    // An authentication card whose token and secret are the key, and which is refused.
    const guarded = new Agent({
      description: "You help.",
      llm: new MockChatModel(["never asked"]),
      toolsPath: false,
      authCard: createAuthCard({
        token: `${keys.cardToken}.${keys.cardToken}.${keys.cardToken}`,
        secret: keys.cardSecret,
      }),
      logger,
    });
    await attempt(() => guarded.invoke("Who am I?"));
  } finally {
    setDefaultLogger(previousDefault);
    vi.unstubAllEnvs();
  }
  return [
    ...logger.lines,
    ...outputs.flatMap((output) => everything(output)),
    ...failures.flatMap((error) => everything(error)),
  ];
}

describe("a secret planted everywhere the framework is configured", () => {
  it("appears in no log line, tool result, model message or error property", async () => {
    await fc.assert(
      fc.asyncProperty(keyArbitrary, async (base) => {
        // One key per place: the base (random) and the place, so no key contains another.
        const keys = Object.fromEntries(places.map((place) => [place, `${place}${base}`])) as Keys;
        const texts = await runEverywhere(keys);
        expect(texts.length).toBeGreaterThan(10);
        // Every tool ran and failed, each with its own failure text.
        for (const failure of [
          "Error fetching BTC price",
          'Error: Tool "leaky" failed',
          "Web search failed",
        ]) {
          expect(texts.some((text) => text.startsWith(failure))).toBe(true);
        }
        const leaks = texts.flatMap((text) =>
          places.filter((place) => text.includes(keys[place])).map((place) => `${place}: ${text}`),
        );
        expect(leaks.map((text) => text.slice(0, 300))).toEqual([]);
      }),
      { numRuns: 3 },
    );
    tally.fuzzed(3);
  });
});
