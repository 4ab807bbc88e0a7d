import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sampleDataHeadline } from "@framework/cli-kit";
import { type FakeServices, startFakeServices } from "@framework/demo-kit";
import { spawnApp, spawnAppOnTerminal } from "@framework/demo-kit/testing";
import type { OpenAIChatRequestBody } from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cryptoPromptOpening,
  marketPromptOpening,
  recommenderPromptRequest,
} from "./crew-prompts.js";
import type { CrewFinalState } from "./crew-report.js";
import { crewAnalyst } from "./offline/crew-analyst.js";
import { Recommendation, renderRecommendation } from "./recommendation.js";
import { offlineApprovalNote } from "./tools-asking-first.js";

const script = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const query = "Compare AAPL and FPT with Bitcoin: how should I split a growth portfolio?";
// The specification's final state keys, then the typed recommendation and why it is missing.
const finalStateKeys = [
  "messages",
  "equity_insight",
  "crypto_insight",
  "final_recommendation",
  "recommendation",
  "recommendation_issues",
];

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

/** The messages of the recommender's latest request asked about `question`. */
function lastRecommenderRequest(question: string) {
  const request = services.llm.chatRequests.findLast(
    (body) =>
      nodeOf(body) === "recommender" &&
      body.messages.at(-1)?.role === "user" &&
      String(body.messages.at(-1)?.content).includes(question),
  );
  if (!request) throw new Error(`no recommender request about "${question}"`);
  return request.messages;
}

describe("pnpm crew, against fake services", () => {
  it("runs market and crypto concurrently, the recommender once after both, and prints all three sections", async () => {
    const before = services.llm.requests.length;
    const result = await crew([query, "--yes", "--verbose"]);
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

  it("prints the crew's final state, and nothing else, as JSON with --json", async () => {
    const result = await crew([query, "--json", "--user", "alice", "--thread", "7", "--verbose"]);
    expect(result.code).toBe(0);
    const state = JSON.parse(result.stdout) as CrewFinalState;
    expect(Object.keys(state)).toEqual(finalStateKeys);
    expect(state.messages.map((message) => message.role)).toEqual([
      "user",
      expect.stringMatching(/^(MarketDataProvider|CryptoTracker)$/),
      expect.stringMatching(/^(MarketDataProvider|CryptoTracker)$/),
      "Recommender",
    ]);
    expect(state.equity_insight).toMatch(/^Equity outlook for AAPL, FPT/);
    expect(state.crypto_insight).toContain("BTC-USD at $97234.56");
    expect(state.recommendation_issues).toEqual([]);
    const recommendation = Recommendation.parse(state.recommendation);
    expect(state.final_recommendation).toBe(renderRecommendation(recommendation));
    expect(recommendation.allocation.map((position) => position.asset)).toEqual([
      "equities",
      "BTC",
      "cash",
    ]);
    expect(recommendation.allocation.reduce((sum, p) => sum + p.percent, 0)).toBe(100);
    expect(recommendation.rationale).toMatch(/AAPL [+-]\d+\.\d{2}%, FPT [+-]\d+\.\d{2}%/);
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

describe("pnpm crew, against a model that answers in prose", () => {
  let prose: FakeServices;
  beforeAll(async () => {
    prose = await startFakeServices({ analyst: crewAnalyst, answersInProse: true });
  });
  afterAll(() => prose.close());

  const unstructured =
    "Unstructured recommendation: the model's answer did not match the structure asked for";

  it("prints the model's text as the recommendation, says it is unstructured, and exits 0", async () => {
    const result = await crew([query, "--yes"], prose.environment);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    const [, recommendation = ""] = result.stdout.split(
      "## Final recommendation (RecommenderAgent)\n\n",
    );
    expect(recommendation).toMatch(
      new RegExp(`^${unstructured} \\(The answer is not valid JSON\\)`),
    );
    // The recommender's answer as the model wrote it: its figures, in sentences.
    expect(recommendation).toMatch(/^Action: Hold \d+% equities, \d+% BTC and \d+% cash/m);
    expect(recommendation).toMatch(/^Allocation: asset equities, percent \d+; asset BTC/m);
    expect(result.stdout).toContain("## Equity insight (MarketDataProvider)");
    expect(result.stderr).toContain(`recommender WARN ${unstructured}`);
    // Asked once, then once more with the problems, before settling for the text.
    const recommenderCalls = prose.llm.chatRequests.filter(
      (body) => nodeOf(body) === "recommender",
    );
    expect(recommenderCalls).toHaveLength(2);
  });

  it("prints the final state with --json: the text as final_recommendation, recommendation null with the issues", async () => {
    const result = await crew([query, "--json"], prose.environment);
    expect(result.code).toBe(0);
    const state = JSON.parse(result.stdout) as CrewFinalState;
    expect(Object.keys(state)).toEqual(finalStateKeys);
    expect(state.recommendation).toBeNull();
    expect(state.recommendation_issues).toEqual([
      { path: "(output)", message: "The answer is not valid JSON." },
    ]);
    expect(state.final_recommendation).toMatch(/^Action: Hold \d+% equities/);
    expect(state.messages.at(-1)).toEqual({
      role: "Recommender",
      content: state.final_recommendation,
    });
    expect(state.equity_insight).toMatch(/^Equity outlook for AAPL, FPT/);
  });
});

describe("pnpm crew --offline", () => {
  it("piped, prints the sample-data headline first, the report with news, and on stderr only why no tool asked and the thread", async () => {
    const result = await crew(["--offline"], {});
    expect(result.code).toBe(0);
    const [headline, ...report] = result.stdout.split("\n");
    expect(headline).toBe(sampleDataHeadline);
    expect(headline).toContain("sample data");
    expect(report.join("\n").trimStart()).toMatch(/^## Equity insight \(MarketDataProvider\)/);
    // The web search ran against the local fake, though nobody could be asked.
    expect(result.stdout).toMatch(/^Sentiment: (?!no news came back)/m);
    // No progress or log lines off a terminal.
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toEqual([
      offlineApprovalNote,
      expect.stringMatching(/^thread [0-9a-f-]{36} \(continue it with --thread [0-9a-f-]{36}\)$/),
    ]);
  });

  it("does not ask at a terminal either: every call goes to a local fake", async () => {
    const result = await spawnAppOnTerminal({
      script,
      args: ["--offline", query],
      cwd,
      env: { FRAMEWORK_CHARTS_DIR: join(cwd, "charts") },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("Allow?");
    expect(result.stdout).toContain(offlineApprovalNote);
    expect(result.stdout).toMatch(/Sentiment: (?!no news came back)/);
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

  it("prints a valid typed recommendation in the final state with --offline --json", async () => {
    const result = await crew(["--offline", "--json"], {});
    expect(result.code).toBe(0);
    const state = JSON.parse(result.stdout) as CrewFinalState;
    expect(Recommendation.safeParse(state.recommendation).success).toBe(true);
  });
});

describe("pnpm crew threads, in a SQLite file", () => {
  it("keeps threads in .framework/checkpoints.sqlite and continues one with --thread", async () => {
    const first = await crew([query, "--thread", "continued"]);
    expect(first.code).toBe(0);
    expect(existsSync(join(cwd, ".framework", "checkpoints.sqlite"))).toBe(true);
    const second = await crew(["And what about ETH?", "--thread", "continued"]);
    expect(second.code).toBe(0);
    // The recommender remembers the thread's earlier question and its own answer.
    const ask = lastRecommenderRequest("And what about ETH?");
    expect(ask.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(String(ask[1]?.content)).toContain(query);
    expect(Recommendation.safeParse(JSON.parse(String(ask[2]?.content))).success).toBe(true);
  });

  it("starts a new thread per run without --thread and says its id", async () => {
    const result = await crew(["A question of its own", "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/thread [0-9a-f-]{36} \(continue it with --thread/);
    expect(lastRecommenderRequest("A question of its own").map((m) => m.role)).toEqual([
      "system",
      "user",
    ]);
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
    expect(forgotten.stdout).toBe(`thread x deleted from ${explicit}\n`);
    expect((await crew(["Anything new?", "--thread", "x", "--db", explicit])).code).toBe(0);
    expect(lastRecommenderRequest("Anything new?")).toHaveLength(2);
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
    expect(recommendation).toContain("Action: No recommendation");
    expect(recommendation).toContain("Allocation: 100% cash.");
  });

  it("says so in a valid typed recommendation with --json when the request names no ticker", async () => {
    const result = await crew(["--offline", "--json", "What is the meaning of life?"], {});
    expect(result.code).toBe(0);
    const recommendation = Recommendation.parse(
      (JSON.parse(result.stdout) as CrewFinalState).recommendation,
    );
    expect(recommendation.allocation).toEqual([{ asset: "cash", percent: 100 }]);
    expect(recommendation.rationale).toContain(
      "The offline demo's scripted model only knows its sample questions",
    );
  });

  it("analyses the dates the request names", async () => {
    const result = await crew(["--offline", "How did MSFT do in 2023?"], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "Equity outlook for MSFT (daily bars from 2023-01-01 to 2024-01-01, end excluded):",
    );
  });
});

describe("pnpm crew asks before the tools that ask first", () => {
  const declined =
    /declined: market wants to run search_api \{"query":"[^"]+"\}; it asks first and there is no terminal to ask at \(pass --yes/;
  const question = /market wants to run search_api \{"query":"[^"]+"\}\. Allow\? \[y\/N\] /;

  function onTerminal(args: string[], answer: string) {
    return spawnAppOnTerminal({
      script,
      args,
      cwd,
      env: { FRAMEWORK_CHARTS_DIR: join(cwd, "charts"), ...services.environment },
      answers: [{ when: question, type: answer }],
    });
  }

  it("declines them with a line on standard error when there is no terminal, and finishes", async () => {
    const searches = services.tavily.requests.length;
    const result = await crew([query]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(declined);
    expect(services.tavily.requests).toHaveLength(searches);
    expect(result.stdout).toContain("Sentiment: no news came back from the web search.");
  });

  it("runs them without asking with --yes", async () => {
    const searches = services.tavily.requests.length;
    const result = await crew([query, "--yes"]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain("declined");
    expect(services.tavily.requests.length).toBeGreaterThan(searches);
  });

  it("asks at a terminal, pausing the run, and runs the tool when the answer is yes", async () => {
    const searches = services.tavily.requests.length;
    const result = await onTerminal([query, "--thread", "approved"], "y");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/market wants to run search_api .+\. Allow\? \[y\/N\] /);
    expect(services.tavily.requests.length).toBeGreaterThan(searches);
    expect(result.stdout).toContain("## Final recommendation (RecommenderAgent)");
    expect(result.stdout).not.toContain("no news came back");
  });

  it("asks at a terminal and tells the model the user declined when the answer is no", async () => {
    const searches = services.tavily.requests.length;
    const result = await onTerminal([query, "--thread", "refused"], "n");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("declined: search_api for market");
    expect(services.tavily.requests).toHaveLength(searches);
    expect(result.stdout).toContain("Sentiment: no news came back from the web search.");
    const market = services.llm.chatRequests.findLast((body) => nodeOf(body) === "market");
    expect(market?.messages.some((m) => String(m.content).includes("declined"))).toBe(true);
  });

  it("keeps the question in the thread when Ctrl-C ends the run there, and asks it again on --resume", async () => {
    const cancelled = await onTerminal([query, "--thread", "later"], "\x03");
    expect(cancelled.code).toBe(130);
    expect(cancelled.stdout).toContain("error: interrupted");
    const before = services.llm.chatRequests.length;
    const resumed = await onTerminal(["--thread", "later", "--resume"], "y");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("## Final recommendation (RecommenderAgent)");
    // Only the node that asked runs again, then the recommender; crypto had finished.
    const nodes = new Set(services.llm.chatRequests.slice(before).map((body) => nodeOf(body)));
    expect([...nodes].sort()).toEqual(["market", "recommender"]);
  });
});
