import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, type AgentToolCall } from "@framework/core";
import {
  coinDeskFaults,
  createCapturingLogger,
  type FakeResponse,
  type FakeServer,
  fakeTavilyApiKey,
  MockChatModel,
  mockToolCall,
  ReliabilityTally,
  startFakeArxivServer,
  startFakeCoinDeskServer,
  startFakeServer,
  startFakeTavilyServer,
  startFakeYahooServer,
  tavilyFaults,
  yahooTooManyRequests,
} from "@framework/testing";
import { createBtcMarketDataTool } from "@framework/tools-crypto";
import { fetch_stock_data, plot_returns, visualize_stock_data } from "@framework/tools-finance";
import { paper_research } from "@framework/tools-papers";
import { createSearchApiTool } from "@framework/tools-websearch";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Every upstream of every tool failing every way: rate-limited, a server error, garbage,
// nothing at all (a hang, ended by the tool's own time limit) and no one listening. Each call
// goes through an Agent: the tool must return the specification's failure value, the model
// must get it as an ordinary result, and invoke must resolve.
const tally = new ReliabilityTally("tool-upstream-faults");
// A hang never answers, so its short limit always fires whatever the machine's load. Every
// other fault does answer, and on a busy machine that can take longer than any short limit:
// those run with a limit that only guards against a real hang.
const timeoutMs = 200;
const answeringTimeoutMs = 60_000;

type Upstream = "arxiv" | "tavily" | "coindesk" | "yahoo";
type Fault = "rate-limited" | "server-error" | "bad-gateway" | "garbage" | "wrong-shape" | "hang";

const servers = {} as Record<Upstream, FakeServer>;
let closedUrl: string;
let dir: string;

beforeAll(async () => {
  [servers.arxiv, servers.tavily, servers.coindesk, servers.yahoo] = await Promise.all([
    startFakeArxivServer(),
    startFakeTavilyServer(),
    startFakeCoinDeskServer(),
    startFakeYahooServer(),
  ]);
  const closed = await startFakeServer(() => ({}));
  closedUrl = closed.url;
  await closed.close();
  dir = await mkdtemp(join(tmpdir(), "e2e-tool-faults-"));
  vi.stubEnv("ARXIV_API_URL", servers.arxiv.url);
  vi.stubEnv("TAVILY_API_URL", servers.tavily.url);
  vi.stubEnv("TAVILY_API_KEY", fakeTavilyApiKey);
  vi.stubEnv("COINDESK_API_URL", servers.coindesk.url);
  vi.stubEnv("YAHOO_FINANCE_URL", servers.yahoo.url);
  vi.stubEnv("FRAMEWORK_CHARTS_DIR", join(dir, "charts"));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all(Object.values(servers).map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
  await tally.flush();
});

/** The tools, with the given time limit wherever a tool has one. */
function toolsWithin(limitMs: number) {
  vi.stubEnv("ARXIV_TIMEOUT_MS", String(limitMs));
  vi.stubEnv("YAHOO_TIMEOUT_MS", String(limitMs));
  return [
    paper_research,
    createSearchApiTool({ timeoutMs: limitMs }),
    createBtcMarketDataTool({ timeoutMs: limitMs }),
    fetch_stock_data,
    visualize_stock_data,
    plot_returns,
  ];
}

const urlVariable: Record<Upstream, string> = {
  arxiv: "ARXIV_API_URL",
  tavily: "TAVILY_API_URL",
  coindesk: "COINDESK_API_URL",
  yahoo: "YAHOO_FINANCE_URL",
};

const html = (status: number, text: string): FakeResponse => ({
  status,
  headers: { "content-type": "text/html" },
  body: `<html><body><h1>${status} ${text}</h1></body></html>`,
});

// What each upstream answers for each fault, in the upstream's own style where it has one.
const faultResponses: Record<Upstream, Record<Fault, FakeResponse>> = {
  arxiv: {
    "rate-limited": { status: 429, headers: { "retry-after": "3" }, body: "Rate exceeded." },
    "server-error": { status: 500, body: "Internal Server Error" },
    "bad-gateway": html(503, "Service Unavailable"),
    garbage: {
      status: 200,
      headers: { "content-type": "application/atom+xml" },
      body: "<feed><entry",
    },
    "wrong-shape": html(200, "Welcome"),
    hang: { hang: true },
  },
  tavily: {
    "rate-limited": tavilyFaults.rateLimited(),
    "server-error": tavilyFaults.serverError(),
    "bad-gateway": html(502, "Bad Gateway"),
    garbage: {
      status: 200,
      headers: { "content-type": "application/json" },
      body: '{"answer": "x", "res',
    },
    "wrong-shape": { status: 200, body: { unexpected: true } },
    hang: { hang: true },
  },
  coindesk: {
    "rate-limited": coinDeskFaults.rateLimited(),
    "server-error": coinDeskFaults.serverError(),
    "bad-gateway": html(502, "Bad Gateway"),
    garbage: coinDeskFaults.malformedBody(),
    "wrong-shape": { status: 200, body: { Data: { "BTC-USD": { VALUE: "a lot" } }, Err: {} } },
    hang: { hang: true },
  },
  yahoo: {
    "rate-limited": yahooTooManyRequests,
    "server-error": {
      status: 500,
      headers: { "content-type": "text/plain" },
      body: "Internal error",
    },
    "bad-gateway": html(502, "Bad Gateway"),
    garbage: {
      status: 200,
      headers: { "content-type": "application/json" },
      body: '{"chart": {"res',
    },
    "wrong-shape": { status: 200, body: { chart: { result: [{ meta: {} }], error: null } } },
    hang: { hang: true },
  },
};

interface ToolRow {
  tool: string;
  upstream: Upstream;
  args: Record<string, unknown>;
  /** The failure as the tool reports it: its result text, or its logged line. */
  failure: (call: AgentToolCall, warnings: string[]) => string;
  /** What the spec says the failure looks like. */
  shape: RegExp;
}

const rows: ToolRow[] = [
  {
    tool: "paper_research",
    upstream: "arxiv",
    args: { topic: "tool-using agents" },
    failure: (call) => {
      const result = call.result as { error?: string; total_papers: number; papers_info: [] };
      expect(result).toMatchObject({ total_papers: 0, paper_ids: [], papers_info: [] });
      expect(call.output).toContain(result.error);
      return result.error ?? "";
    },
    shape: /^(arXiv|the connection to arXiv)/,
  },
  {
    tool: "search_api",
    upstream: "tavily",
    args: { query: "bitcoin ETF flows" },
    failure: (call) => call.output,
    shape: /^Web search failed/,
  },
  {
    tool: "fetch_btc_market_data",
    upstream: "coindesk",
    args: {},
    failure: (call) => call.output,
    shape: /^Error fetching BTC price: /,
  },
  {
    tool: "fetch_stock_data",
    upstream: "yahoo",
    args: { symbol: "AAPL", start_date: "2024-01-01", end_date: "2024-03-01" },
    failure: (call, warnings) => {
      expect(call.result).toBeNull();
      return warnings.find((line) => line.startsWith("Error fetching data for AAPL")) ?? "";
    },
    shape: /^Error fetching data for AAPL: /,
  },
];

// What the failure text says for each fault, beyond the tool's prefix.
const faultWording: Record<Upstream, Record<Fault | "refused", RegExp>> = {
  arxiv: {
    "rate-limited": /HTTP 429 Too Many Requests\); wait a few seconds .*\(Retry-After: 3\)/,
    "server-error": /arXiv answered HTTP 500 Internal Server Error/,
    "bad-gateway": /arXiv answered HTTP 503 Service Unavailable/,
    garbage: /not well-formed XML/,
    "wrong-shape": /not an Atom feed: its root element is <html>/,
    hang: new RegExp(`did not answer within ${timeoutMs} ms`),
    refused: /the connection to arXiv at http:\/\/127\.0\.0\.1:\d+ failed: .*ECONNREFUSED/,
  },
  tavily: {
    "rate-limited": /temporary, try again later\): Tavily rate limit reached \(HTTP 429\)/,
    "server-error": /temporary, try again later\): Tavily server error \(HTTP 500\)/,
    "bad-gateway": /temporary, try again later\): Tavily server error \(HTTP 502\)/,
    garbage: /Tavily answered with an unexpected response/,
    "wrong-shape": /Tavily answered with an unexpected response/,
    hang: new RegExp(
      `temporary, try again later\\): Tavily search timed out after ${timeoutMs} ms`,
    ),
    refused: /temporary, try again later\): Could not reach Tavily at http:\/\/127\.0\.0\.1:\d+/,
  },
  coindesk: {
    "rate-limited": /CoinDesk answered HTTP 429 Too Many Requests: You are over your rate limit/,
    "server-error": /CoinDesk answered HTTP 500 Internal Server Error: Internal server error/,
    "bad-gateway": /CoinDesk answered HTTP 502 Bad Gateway$/,
    garbage: /the answer is not valid JSON/,
    "wrong-shape": /the BTC-USD data lacks numeric fields VALUE, CURRENT_DAY_CHANGE, /,
    hang: new RegExp(`no answer from http://127\\.0\\.0\\.1:\\d+ within ${timeoutMs} ms`),
    refused: /could not reach http:\/\/127\.0\.0\.1:\d+/,
  },
  yahoo: {
    "rate-limited": /Yahoo Finance answered HTTP 429 Too Many Requests$/,
    "server-error": /Yahoo Finance answered HTTP 500 Internal Server Error: Internal error$/,
    "bad-gateway": /Yahoo Finance answered HTTP 502 Bad Gateway$/,
    garbage: /the response was not parsable/,
    // yahoo-finance2's own words for a chart without quotes; any reason will do.
    "wrong-shape": /: \S/,
    hang: /The operation was aborted due to timeout/,
    refused: /fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)/,
  },
};

async function callThroughAgent(
  row: ToolRow,
  limitMs = answeringTimeoutMs,
): Promise<{ call: AgentToolCall; warnings: string[] }> {
  const llm = new MockChatModel([{ toolCalls: [mockToolCall(row.tool, row.args, "c1")] }, "Done."]);
  const logger = createCapturingLogger();
  const agent = await Agent.create({
    description: "You use tools.",
    llm,
    tools: toolsWithin(limitMs),
    toolsPath: join(dir, "tools.json"),
    cwd: dir,
    logger,
  });
  const result = await agent.invoke("Use the tool.");
  expect(result.content).toBe("Done.");
  expect(result.toolCalls).toHaveLength(1);
  const call = result.toolCalls[0] as AgentToolCall;
  // The tool did not throw: it returned its failure as a value, which the model was sent.
  expect(call.ok).toBe(true);
  expect(llm.calls[1]?.messages.at(-1)).toMatchObject({ role: "tool", content: call.output });
  const warnings = logger.entries.filter((e) => e.level === "warn").map((e) => e.message);
  return { call, warnings };
}

const faults: Array<Fault | "refused"> = [
  "rate-limited",
  "server-error",
  "bad-gateway",
  "garbage",
  "wrong-shape",
  "hang",
  "refused",
];

describe.each(rows)("$tool when $upstream fails", (row) => {
  it.each(faults)("returns the spec's failure value when the upstream is %s", async (fault) => {
    await tally.trial(1, async () => {
      const server = servers[row.upstream];
      const requestsBefore = server.requests.length;
      if (fault === "refused") vi.stubEnv(urlVariable[row.upstream], closedUrl);
      else server.injectFaults(faultResponses[row.upstream][fault]);
      let outcome: Awaited<ReturnType<typeof callThroughAgent>>;
      try {
        outcome = await callThroughAgent(row, fault === "hang" ? timeoutMs : answeringTimeoutMs);
      } finally {
        vi.stubEnv(urlVariable[row.upstream], server.url);
      }
      const text = row.failure(outcome.call, outcome.warnings);
      expect(text).toMatch(row.shape);
      expect(text).toMatch(faultWording[row.upstream][fault]);
      expect(outcome.warnings.join("\n")).toContain(
        text.replace(/^Error fetching BTC price: /, ""),
      );
      // No retries: each tool asks its upstream once and leaves retrying to the model.
      expect(server.requests.length - requestsBefore).toBe(fault === "refused" ? 0 : 1);
    });
  });
});

describe("the chart tools when Yahoo is rate-limited", () => {
  it.each([visualize_stock_data.name, plot_returns.name])(
    "%s returns null and draws nothing",
    async (name) => {
      await tally.trial(1, async () => {
        servers.yahoo.injectFaults(yahooTooManyRequests);
        const { call, warnings } = await callThroughAgent({
          tool: name,
          upstream: "yahoo",
          args: { symbol: "MSFT" },
          failure: () => "",
          shape: /.*/,
        });
        expect(call.result).toBeNull();
        expect(call.output).toMatch(/^null: /);
        expect(warnings).toContain(
          "Error fetching data for MSFT: Yahoo Finance answered HTTP 429 Too Many Requests",
        );
        await expect(readdir(join(dir, "charts")).catch(() => [])).resolves.toEqual([]);
      });
    },
  );
});
