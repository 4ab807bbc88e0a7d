import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sampleDataHeadline } from "@framework/cli-kit";
import { type FakeServices, spawnApp, startFakeServices } from "@framework/demo-kit";
import type { OpenAIChatRequestBody } from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cryptoPromptOpening,
  marketPromptOpening,
  recommenderPromptRequest,
} from "./crew-prompts.js";
import { crewAnalyst } from "./offline/crew-analyst.js";
import type { Trading } from "./trading-state.js";

const script = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const query = "Compare AAPL and FPT with Bitcoin: how should I split a growth portfolio?";

let cwd: string;
let services: FakeServices;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "crew-cli-"));
  // A little model latency keeps both insight nodes' conversations in flight together.
  services = await startFakeServices({ analyst: crewAnalyst, llmLatencyMs: 25 });
});
afterAll(async () => {
  await services.close();
  await rm(cwd, { recursive: true, force: true });
});

function crew(args: string[], env: Record<string, string> = services.environment) {
  return spawnApp({
    script,
    args,
    cwd,
    env: { FRAMEWORK_CHARTS_DIR: join(cwd, "charts"), ...env },
  });
}

type NodeName = "market" | "crypto" | "recommender";

function nodeOf(body: unknown): NodeName | undefined {
  const messages = (body as OpenAIChatRequestBody).messages;
  const prompt = messages.find((message) => message.role === "user")?.content;
  if (typeof prompt !== "string") return undefined;
  if (prompt.includes(recommenderPromptRequest)) return "recommender";
  if (prompt.startsWith(cryptoPromptOpening)) return "crypto";
  if (prompt.startsWith(marketPromptOpening)) return "market";
  return undefined;
}

describe("pnpm crew, against fake services", () => {
  it("runs market and crypto concurrently, the recommender once after both, and prints all three sections", async () => {
    const before = services.llm.requests.length;
    const result = await crew([query, "--verbose"]);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("## Equity insight (MarketDataProvider)");
    expect(result.stdout).toContain("## Crypto insight (CryptoTracker)");
    expect(result.stdout).toContain("## Final recommendation (RecommenderAgent)");
    expect(result.stdout).toMatch(/- AAPL: last close \d+\.\d{2} USD/);
    expect(result.stdout).toMatch(/- FPT: last close \d+\.\d{2} VND \(thousands\)/);
    expect(result.stdout).toContain("BTC-USD at $97234.56");
    expect(result.stdout).toMatch(/Allocation: \d+% equities, \d+% BTC, \d+% cash\./);

    // The tools really ran, against the fakes.
    expect(services.yahoo.requests.some((r) => r.path === "/v8/finance/chart/AAPL")).toBe(true);
    expect(
      services.vci.requests.map((r) => (r.json as { symbols: string[] }).symbols),
    ).toContainEqual(["FPT"]);
    expect(services.coindesk.requests).not.toHaveLength(0);
    expect(services.tavily.requests).not.toHaveLength(0);

    // Timing from the fake model's own clock: the insight nodes overlap, the recommender follows.
    const calls = services.llm.requests.slice(before).map((request) => ({
      node: nodeOf(request.json),
      at: request.receivedAt,
      tools: ((request.json as OpenAIChatRequestBody).tools ?? []).map(
        (tool) => tool.function.name,
      ),
    }));
    const times = (node: NodeName) =>
      calls.filter((call) => call.node === node).map((call) => call.at);
    const [market, crypto, recommender] = [times("market"), times("crypto"), times("recommender")];
    expect(market.length).toBeGreaterThan(1);
    expect(crypto.length).toBeGreaterThan(1);
    expect(Math.min(...market)).toBeLessThan(Math.max(...crypto));
    expect(Math.min(...crypto)).toBeLessThan(Math.max(...market));
    expect(recommender).toHaveLength(1);
    expect(recommender[0]).toBeGreaterThan(Math.max(...market, ...crypto));

    // Every node is offered the shared tools and the runtime fetch_stock_data_vn.
    for (const call of calls) {
      expect(call.tools).toEqual(
        expect.arrayContaining([
          "fetch_stock_data",
          "fetch_btc_market_data",
          "search_api",
          "get_current_time",
          "fetch_stock_data_vn",
        ]),
      );
    }

    // The progress lines (--verbose off a terminal) tell the same story.
    const events = result.stderr.match(/node \w+ (started|finished)/g) ?? [];
    expect(events.slice(0, 2).sort()).toEqual(["node crypto started", "node market started"]);
    expect(events.slice(4)).toEqual(["node recommender started", "node recommender finished"]);
  });

  it("prints the final state as JSON with --json, for the given user and thread", async () => {
    const result = await crew([query, "--json", "--user", "alice", "--thread", "7", "--verbose"]);
    expect(result.code).toBe(0);
    const state = JSON.parse(result.stdout) as Trading;
    expect(Object.keys(state).sort()).toEqual(
      [
        "conversations",
        "crypto_insight",
        "equity_insight",
        "final_recommendation",
        "messages",
      ].sort(),
    );
    expect(state.messages[0]).toEqual({ role: "user", content: query });
    expect(
      state.messages
        .slice(1, 3)
        .map((m) => m.role)
        .sort(),
    ).toEqual(["CryptoTracker", "MarketDataProvider"]);
    expect(state.messages[3]).toEqual({ role: "Recommender", content: state.final_recommendation });
    expect(state.messages.find((m) => m.role === "MarketDataProvider")?.content).toBe(
      state.equity_insight,
    );
    expect(result.stderr).toContain("I'am chatting with alice");
  });

  it("exits non-zero with one clear line when the model service rejects the key", async () => {
    const result = await crew([query], {
      ...services.environment,
      LLM_API_KEY: "sk-wrong-key-1234",
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n").at(-1)).toMatch(
      /^error: the model service rejected the API key \(HTTP 401\)/,
    );
    expect(result.stderr).not.toContain("sk-wrong-key-1234");
  });

  it("says how to configure a key, or to use --offline, when there is none", async () => {
    const result = await crew([query], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: LLM_API_KEY is not set\..*\.env.*--offline/m);
  });
});

describe("pnpm crew --offline", () => {
  it("piped, prints the sample-data headline first, the report, and on stderr only the thread", async () => {
    const result = await crew(["--offline"], {});
    expect(result.code).toBe(0);
    const [headline, ...report] = result.stdout.split("\n");
    expect(headline).toBe(sampleDataHeadline);
    expect(headline).toContain("sample data");
    expect(report.join("\n").trimStart()).toMatch(/^## Equity insight \(MarketDataProvider\)/);
    expect(result.stderr).toMatch(
      /^thread [0-9a-f-]{36} \(continue it with --thread [0-9a-f-]{36}\)\n$/,
    );
  });

  it("keeps standard output pure JSON with --json, the headline on standard error", async () => {
    const result = await crew(["--offline", "--json"], {});
    expect(result.code).toBe(0);
    expect(() => JSON.parse(result.stdout)).not.toThrow();
    expect(result.stderr.split("\n")[0]).toBe(sampleDataHeadline);
  });

  it("runs the whole crew on in-process fakes and a scripted model, and shows it with --verbose", async () => {
    const result = await crew(["--offline", "--verbose"], {});
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(sampleDataHeadline);
    expect(result.stderr).toMatch(/^A scripted model stands in for the LLM/m);
    for (const tool of [
      "get_current_time",
      "fetch_stock_data",
      "fetch_stock_data_vn",
      "search_api",
      "fetch_btc_market_data",
    ]) {
      // Progress comes from agent events, tagged with the crew node that called the tool.
      expect(result.stderr).toMatch(new RegExp(`\\] \\w+ → ${tool} \\{`));
    }
    expect(result.stdout).toContain("## Equity insight (MarketDataProvider)");
    expect(result.stdout).toContain("## Crypto insight (CryptoTracker)");
    expect(result.stdout).toContain("## Final recommendation (RecommenderAgent)");
  });
});

describe("pnpm crew threads, in a SQLite file", () => {
  it("keeps threads in .framework/checkpoints.sqlite and continues one with --thread", async () => {
    const first = await crew([query, "--json", "--thread", "continued"]);
    expect(first.code).toBe(0);
    expect(existsSync(join(cwd, ".framework", "checkpoints.sqlite"))).toBe(true);
    const second = await crew(["And what about ETH?", "--json", "--thread", "continued"]);
    expect(second.code).toBe(0);
    const state = JSON.parse(second.stdout) as Trading;
    const asked = state.messages.filter((m) => m.role === "user").map((m) => m.content);
    expect(asked).toEqual([query, "And what about ETH?"]);
    expect(state.messages).toHaveLength(8);
    // The recommender remembers the thread's earlier question and its own answer.
    const recommender = state.conversations.recommender ?? [];
    expect(recommender.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(recommender[0]?.content).toContain(query);
    expect(recommender[2]?.content).toContain("And what about ETH?");
    const lastAsk = services.llm.chatRequests.findLast((request) =>
      request.messages.some((m) => String(m.content).includes("And what about ETH?")),
    );
    expect(lastAsk?.messages.some((m) => String(m.content).includes(query))).toBe(true);
  });

  it("starts a new thread per run without --thread and says its id", async () => {
    const result = await crew([query, "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/thread [0-9a-f-]{36} \(continue it with --thread/);
    const state = JSON.parse(result.stdout) as Trading;
    expect(state.messages.filter((m) => m.role === "user")).toHaveLength(1);
  });

  it("uses --db, else FRAMEWORK_CHECKPOINT_DB, and forgets a thread with --forget", async () => {
    const fromEnv = join(cwd, "env-chosen.sqlite");
    const env = { ...services.environment, FRAMEWORK_CHECKPOINT_DB: fromEnv };
    expect((await crew([query, "--thread", "e"], env)).code).toBe(0);
    expect(existsSync(fromEnv)).toBe(true);
    const explicit = join(cwd, "explicit", "crew.sqlite");
    expect((await crew([query, "--thread", "x", "--db", explicit], env)).code).toBe(0);
    expect(existsSync(explicit)).toBe(true);

    const forgotten = await crew(["--thread", "x", "--db", explicit, "--forget"]);
    expect(forgotten.code).toBe(0);
    expect(forgotten.stdout).toContain("thread x deleted");
    const again = await crew([query, "--json", "--thread", "x", "--db", explicit]);
    const state = JSON.parse(again.stdout) as Trading;
    expect(state.messages.filter((m) => m.role === "user")).toHaveLength(1);
  });

  it("refuses --resume and --forget without --thread", async () => {
    const result = await crew(["--resume"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--resume needs --thread <id>");
  });

  it("says plainly that it only knows its sample questions when the request names no ticker", async () => {
    const result = await crew(["--offline", "What is the meaning of life?"], {});
    expect(result.code).toBe(0);
    const plain = "The offline demo's scripted model only knows its sample questions";
    const [equity, , recommendation] = result.stdout.split(/^## .+$/m).slice(1);
    expect(equity).toContain(plain);
    expect(recommendation).toContain(plain);
    expect(result.stdout).not.toMatch(/Allocation:/);
  });

  it("analyses the dates the request names", async () => {
    const result = await crew(["--offline", "How did MSFT do in 2023?"], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "Equity outlook for MSFT (daily bars from 2023-01-01 to 2024-01-01, end excluded):",
    );
  });
});
