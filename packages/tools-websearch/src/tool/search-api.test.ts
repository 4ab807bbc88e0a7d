import { getToolSpec } from "@framework/core";
import {
  createCapturingLogger,
  type FakeTavilyServer,
  startFakeTavilyServer,
  tavilyFaults,
} from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSearchApiTool, search_api } from "./search-api.js";

let server: FakeTavilyServer;
let logger: ReturnType<typeof createCapturingLogger>;

async function useServer(options: Parameters<typeof startFakeTavilyServer>[0] = {}) {
  await server?.close();
  server = await startFakeTavilyServer(options);
  vi.stubEnv("TAVILY_API_URL", server.url);
  vi.stubEnv("TAVILY_API_KEY", server.apiKey);
}

beforeEach(async () => {
  logger = createCapturingLogger();
  await useServer();
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

const run = (query: string | Record<string, string>, tool = search_api, signal?: AbortSignal) =>
  tool({ query }, { logger, ...(signal ? { signal } : {}) });

const sentQuery = () => (server.requests[0]?.json as { query?: string } | undefined)?.query;

describe("search_api", () => {
  it("is a tool named search_api with a string-or-record query", () => {
    const spec = getToolSpec(search_api);
    expect(spec.name).toBe("search_api");
    expect(spec.description.split("\n")[0]).toBe("Search for an answer from a query string.");
    expect(spec.returns).toBe("The answer to the query from a web-search service");
    expect(spec.parameters.safeParse({ query: "text" }).success).toBe(true);
    expect(spec.parameters.safeParse({ query: { a: "b" } }).success).toBe(true);
    expect(spec.parameters.safeParse({ query: { a: 1 } }).success).toBe(false);
    expect(spec.parameters.safeParse({ query: 42 }).success).toBe(false);
  });

  it("returns the service's answer, asking for one", async () => {
    const text = await run("What moved the stock market today?");
    expect(text).toBe(
      "US stocks edged higher, with the S&P 500 up 0.4% and the Nasdaq up 0.7%, as softer inflation data lifted hopes of a rate cut; Treasury yields eased and technology shares led the gains.",
    );
    expect(server.requests[0]?.json).toEqual({
      query: "What moved the stock market today?",
      max_results: 5,
      include_answer: true,
    });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${server.apiKey}`);
    expect(logger.lines).toEqual([]);
  });

  it("sends a record as key: value lines", async () => {
    await run({ company: "NVIDIA", question: "latest quarterly revenue", period: "2025" });
    expect(sentQuery()).toBe("company: NVIDIA\nquestion: latest quarterly revenue\nperiod: 2025");
  });

  it("falls back to the top results when the service wrote no answer", async () => {
    await useServer({ answer: () => null });
    await expect(run("state of AI agents")).resolves.toBe(
      [
        "No direct answer was found. Top web results:",
        "1. Tool-using agents move from demos to production\nhttps://tech.example.com/ai/tool-using-agents-production\nEnterprises are deploying LLM agents that call search, databases and internal APIs in a loop. Teams report the biggest wins where tasks are well scoped and every tool call is logged and checked.",
        "2. Small language models close the gap on reasoning benchmarks\nhttps://research.example.com/papers/small-models-reasoning\nModels under 10 billion parameters, trained on curated synthetic data, now score within a few points of much larger models on maths and coding benchmarks at a fraction of the serving cost.",
        "3. Survey: developers using AI assistants ship code faster\nhttps://tech.example.com/surveys/ai-coding-assistants\nIn a survey of 2,000 developers, 68% said AI assistants shortened routine tasks; respondents also flagged review overhead and subtle bugs in generated code.",
      ].join("\n\n"),
    );
  });

  it("says so when there is neither an answer nor a result", async () => {
    await useServer({ answer: () => null, results: () => [] });
    await expect(run("zxqv")).resolves.toBe("No web results were found for this query.");
  });

  it("does not search for an empty query", async () => {
    await expect(run("  ")).resolves.toBe("Web search needs a non-empty query.");
    await expect(run({})).resolves.toBe("Web search needs a non-empty query.");
    expect(server.requests).toHaveLength(0);
  });

  describe("failures come back as text, logged as warnings, never thrown", () => {
    const expectLogged = (text: string) =>
      expect(logger.entries).toEqual([{ level: "warn", message: `search_api failed: ${text}` }]);

    it("a missing TAVILY_API_KEY", async () => {
      vi.stubEnv("TAVILY_API_KEY", undefined);
      const text = await run("bitcoin");
      expect(text).toBe(
        "Web search failed: TAVILY_API_KEY is not set. Web search needs a Tavily API key: add TAVILY_API_KEY to the environment or the .env file (keys: https://app.tavily.com).",
      );
      expectLogged(text);
      expect(server.requests).toHaveLength(0);
    });

    it("401 for a wrong key, which appears in neither text nor log", async () => {
      const wrongKey = "tvly-wrong-key-0f9e8d7c6b";
      vi.stubEnv("TAVILY_API_KEY", wrongKey);
      const text = await run("bitcoin");
      expect(text).toBe(
        "Web search failed: Tavily rejected the API key (HTTP 401): Unauthorized: missing or invalid API key.",
      );
      expectLogged(text);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${wrongKey}`);
      expect(`${text}\n${logger.lines.join("\n")}`).not.toContain(wrongKey);
    });

    it("429", async () => {
      server.injectFaults(tavilyFaults.rateLimited());
      const text = await run("bitcoin");
      expect(text).toBe(
        "Web search failed (temporary, try again later): Tavily rate limit reached (HTTP 429): Your request has been blocked due to excessive requests. Please reduce rate of requests.",
      );
      expectLogged(text);
    });

    it("500", async () => {
      server.injectFaults(tavilyFaults.serverError());
      const text = await run("bitcoin");
      expect(text).toBe(
        "Web search failed (temporary, try again later): Tavily server error (HTTP 500): Internal Server Error",
      );
      expectLogged(text);
    });

    it("a network failure (nothing listening)", async () => {
      const url = server.url;
      await server.close();
      const text = await run("bitcoin");
      expect(text).toBe(
        `Web search failed (temporary, try again later): Could not reach Tavily at ${url}: connect ECONNREFUSED 127.0.0.1:${new URL(url).port}`,
      );
      expectLogged(text);
    });

    it("a server that never answers, with a short time limit", async () => {
      server.injectFaults({ hang: true });
      const text = await run("bitcoin", createSearchApiTool({ timeoutMs: 150 }));
      expect(text).toBe(
        "Web search failed (temporary, try again later): Tavily search timed out after 150 ms",
      );
      expectLogged(text);
    });

    it("a cancelled agent run", async () => {
      server.injectFaults({ hang: true });
      const controller = new AbortController();
      const pending = run("bitcoin", search_api, controller.signal);
      await vi.waitFor(() => expect(server.requests).toHaveLength(1));
      controller.abort();
      await expect(pending).resolves.toBe("Web search was cancelled.");
      expectLogged("Web search was cancelled.");
    });
  });
});

describe("createSearchApiTool", () => {
  it("gives each tool its own baseURL and key, with no environment variable set", async () => {
    vi.stubEnv("TAVILY_API_URL", undefined);
    vi.stubEnv("TAVILY_API_KEY", undefined);
    const other = await startFakeTavilyServer({ apiKey: "tvly-tenant-key-2b8e14" });
    try {
      const forServer = createSearchApiTool({ baseURL: server.url, apiKey: server.apiKey });
      const forOther = createSearchApiTool({ baseURL: other.url, apiKey: other.apiKey });
      const [a, b] = await Promise.all([run("bitcoin", forServer), run("ethereum", forOther)]);
      expect(a).not.toMatch(/^Web search failed/);
      expect(b).not.toMatch(/^Web search failed/);
      expect(server.requests).toHaveLength(1);
      expect(other.requests.map((request) => request.headers.authorization)).toEqual([
        "Bearer tvly-tenant-key-2b8e14",
      ]);
    } finally {
      await other.close();
    }
  });

  it("is the same tool as search_api: name, parameters and failure texts", async () => {
    const tool = createSearchApiTool({ baseURL: server.url, apiKey: "tvly-wrong-key-5c3a90" });
    const spec = getToolSpec(tool);
    const reference = getToolSpec(search_api);
    expect(spec.name).toBe("search_api");
    expect(spec.description).toBe(reference.description);
    expect(spec.returns).toBe(reference.returns);
    expect(Object.keys(spec.parameters.shape)).toEqual(["query"]);
    await expect(run("bitcoin", tool)).resolves.toBe(
      "Web search failed: Tavily rejected the API key (HTTP 401): Unauthorized: missing or invalid API key.",
    );
  });
});
