import { AbortedError, ConfigurationError } from "@framework/core";
import {
  errorBodyFault,
  errorBodyShapes,
  type FakeTavilyServer,
  startFakeTavilyServer,
  tavilyFaults,
} from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SearchError } from "../error/search-error.js";
import {
  createTavilySearch,
  defaultTavilyApiUrl,
  defaultTavilyBaseURL,
  tavilySearch,
} from "./tavily-search.js";

let server: FakeTavilyServer;

async function useServer(options: Parameters<typeof startFakeTavilyServer>[0] = {}) {
  await server?.close();
  server = await startFakeTavilyServer(options);
  vi.stubEnv("TAVILY_API_URL", server.url);
  vi.stubEnv("TAVILY_API_KEY", server.apiKey);
}

beforeEach(async () => {
  await useServer();
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the search to fail");
}

describe("tavilySearch", () => {
  it("posts Tavily's request with the bearer key and maps the answer and results", async () => {
    const response = await tavilySearch("bitcoin price outlook", {
      maxResults: 2,
      includeAnswer: true,
    });

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/search");
    expect(request?.headers.authorization).toBe(`Bearer ${server.apiKey}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.json).toEqual({
      query: "bitcoin price outlook",
      max_results: 2,
      include_answer: true,
    });

    expect(response.answer).toMatch(/^Bitcoin trades near \$97,000/);
    expect(response.results).toEqual([
      {
        title: "Bitcoin climbs as spot ETF inflows extend winning streak",
        url: "https://markets.example.com/crypto/bitcoin-etf-inflows",
        content: expect.stringContaining("spot bitcoin ETFs"),
        score: 0.94,
      },
      {
        title: "On-chain data: long-term holders trim positions into the rally",
        url: "https://research.example.com/onchain/long-term-holders",
        content: expect.stringContaining("long-term holders"),
        score: 0.88,
      },
    ]);
  });

  it("asks for 5 results and no answer by default, and omits an absent answer", async () => {
    const response = await tavilySearch("S&P 500 earnings season");
    expect(server.requests[0]?.json).toEqual({
      query: "S&P 500 earnings season",
      max_results: 5,
      include_answer: false,
    });
    expect(response).not.toHaveProperty("answer");
    expect(response.results).toHaveLength(5);
  });

  it("uses the client's defaults and lets a search override them", async () => {
    const search = createTavilySearch({ maxResults: 3 });
    await search("AI agents");
    await search("AI agents", { maxResults: 1 });
    expect(
      server.requests.map((request) => (request.json as { max_results: number }).max_results),
    ).toEqual([3, 1]);
  });

  it("reads TAVILY_API_URL and TAVILY_API_KEY at each search, not when created", async () => {
    const search = createTavilySearch();
    const first = server;
    server = await startFakeTavilyServer({ apiKey: "tvly-other-key-123456" });
    vi.stubEnv("TAVILY_API_URL", `${server.url}/`);
    vi.stubEnv("TAVILY_API_KEY", "tvly-other-key-123456");
    await search("markets today");
    expect(first.requests).toHaveLength(0);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer tvly-other-key-123456");
    expect(server.requests[0]?.path).toBe("/search");
    await first.close();
  });

  it("runs concurrent searches independently: one failing query fails alone", async () => {
    await useServer({
      failQueries: (query) => (query.includes("ETH") ? tavilyFaults.serverError() : undefined),
    });
    const queries = ["BTC ETF flows", "ETH staking yield", "AI chip demand"];
    const settled = await Promise.allSettled(
      queries.map((query) => tavilySearch(query, { maxResults: 2 })),
    );
    expect(settled.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    const [btc, eth, ai] = settled;
    expect(btc?.status === "fulfilled" && btc.value.results).toHaveLength(2);
    expect(ai?.status === "fulfilled" && ai.value.results).toHaveLength(2);
    expect(eth?.status === "rejected" && eth.reason).toMatchObject({
      reason: "server_error",
      statusCode: 500,
    });
  });

  describe("failures", () => {
    it("a missing key is a ConfigurationError naming TAVILY_API_KEY, and nothing is sent", async () => {
      vi.stubEnv("TAVILY_API_KEY", undefined);
      const error = await failure(tavilySearch("anything"));
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ setting: "TAVILY_API_KEY" });
      expect(server.requests).toHaveLength(0);
    });

    it("a blank key counts as missing", async () => {
      vi.stubEnv("TAVILY_API_KEY", "   ");
      const error = await failure(tavilySearch("anything"));
      expect(ConfigurationError.isInstance(error)).toBe(true);
    });

    it("401 for a wrong key, without the key in the message", async () => {
      const wrongKey = "tvly-wrong-key-abcdef987654";
      vi.stubEnv("TAVILY_API_KEY", wrongKey);
      const error = await failure(tavilySearch("anything"));
      expect(SearchError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        reason: "unauthorized",
        statusCode: 401,
        retryable: false,
        message:
          "Tavily rejected the API key (HTTP 401): Unauthorized: missing or invalid API key.",
      });
      expect(String((error as Error).message)).not.toContain(wrongKey);
    });

    it("429 is retryable", async () => {
      server.injectFaults(tavilyFaults.rateLimited());
      await expect(failure(tavilySearch("anything"))).resolves.toMatchObject({
        reason: "rate_limited",
        statusCode: 429,
        retryable: true,
      });
    });

    it("432 is a quota error, not retryable", async () => {
      server.injectFaults(tavilyFaults.usageLimitExceeded());
      await expect(failure(tavilySearch("anything"))).resolves.toMatchObject({
        reason: "quota_exceeded",
        statusCode: 432,
        retryable: false,
      });
    });

    it("500 with Tavily's envelope", async () => {
      server.injectFaults(tavilyFaults.serverError());
      await expect(failure(tavilySearch("anything"))).resolves.toMatchObject({
        reason: "server_error",
        statusCode: 500,
        retryable: true,
        message: "Tavily server error (HTTP 500): Internal Server Error",
      });
    });

    it("503 with a plain-text body", async () => {
      server.injectFaults({ status: 503, body: "upstream unavailable" });
      await expect(failure(tavilySearch("anything"))).resolves.toMatchObject({
        reason: "server_error",
        statusCode: 503,
        message: "Tavily server error (HTTP 503): upstream unavailable",
      });
    });

    it.each(errorBodyShapes.filter((shape) => shape !== "detail-error"))(
      "says what a %s error body says, with its status",
      async (shape) => {
        server.injectFaults(errorBodyFault(400, shape, "query is too long"));
        const error = (await failure(tavilySearch("anything"))) as SearchError;
        expect(error).toMatchObject({ reason: "bad_request", statusCode: 400 });
        expect(error.message).toMatch(
          /^Tavily rejected the request \(HTTP 400\): .*query is too long/,
        );
      },
    );

    it("says what Tavily's own envelope says, though @tavily/core drops its status", async () => {
      server.injectFaults(errorBodyFault(400, "detail-error", "query is too long"));
      await expect(failure(tavilySearch("anything"))).resolves.toMatchObject({
        reason: "api_error",
        message: "Tavily search failed: query is too long",
      });
    });

    it("a 200 answer that is not a search response", async () => {
      server.injectFaults({ status: 200, body: { unexpected: true } });
      await expect(failure(tavilySearch("anything"))).resolves.toMatchObject({
        reason: "invalid_response",
        retryable: false,
      });
    });

    it("a network failure (nothing listening)", async () => {
      const url = server.url;
      await server.close();
      const error = await failure(tavilySearch("anything"));
      expect(error).toMatchObject({ reason: "network", retryable: true });
      expect((error as SearchError).statusCode).toBeUndefined();
      expect((error as Error).message).toBe(
        `Could not reach Tavily at ${url}: connect ECONNREFUSED 127.0.0.1:${new URL(url).port}`,
      );
    });

    it("a server that never answers, with a short time limit", async () => {
      server.injectFaults({ hang: true });
      const search = createTavilySearch({ timeoutMs: 150 });
      await expect(failure(search("anything"))).resolves.toMatchObject({
        reason: "timeout",
        retryable: true,
        message: "Tavily search timed out after 150 ms",
      });
    });

    it("an abort stops the wait with AbortedError", async () => {
      server.injectFaults({ hang: true });
      const controller = new AbortController();
      const pending = failure(tavilySearch("anything", { signal: controller.signal }));
      await vi.waitFor(() => expect(server.requests).toHaveLength(1));
      controller.abort();
      expect(AbortedError.isInstance(await pending)).toBe(true);
    });

    it("an already aborted signal sends nothing", async () => {
      const error = await failure(tavilySearch("anything", { signal: AbortSignal.abort() }));
      expect(AbortedError.isInstance(error)).toBe(true);
      expect(server.requests).toHaveLength(0);
    });
  });
});

describe("createTavilySearch settings", () => {
  const others: FakeTavilyServer[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(others.splice(0).map((other) => other.close()));
  });

  async function another(apiKey: string): Promise<FakeTavilyServer> {
    const other = await startFakeTavilyServer({ apiKey });
    others.push(other);
    return other;
  }

  function settingOf(create: () => unknown): string | undefined {
    try {
      create();
    } catch (error) {
      return ConfigurationError.isInstance(error) ? error.setting : "another error";
    }
    return undefined;
  }

  it("gives each client its own baseURL and key, with no environment variable set", async () => {
    vi.stubEnv("TAVILY_API_URL", undefined);
    vi.stubEnv("TAVILY_API_KEY", undefined);
    const [first, second] = [
      await another("tvly-tenant-a-key-41c2"),
      await another("tvly-tenant-b-key-7d90"),
    ];
    const forFirst = createTavilySearch({ baseURL: first.url, apiKey: first.apiKey });
    const forSecond = createTavilySearch({ baseURL: `${second.url}/`, apiKey: second.apiKey });
    await Promise.all([forFirst("first tenant"), forSecond("second tenant")]);
    const queries = (fake: FakeTavilyServer) =>
      fake.requests.map((request) => [request.path, request.headers.authorization]);
    expect(queries(first)).toEqual([["/search", "Bearer tvly-tenant-a-key-41c2"]]);
    expect(queries(second)).toEqual([["/search", "Bearer tvly-tenant-b-key-7d90"]]);
    expect(server.requests).toHaveLength(0);
  });

  it("wins over TAVILY_API_URL, which a client without baseURL reads per search", async () => {
    const other = await another(server.apiKey);
    await createTavilySearch({ baseURL: other.url })("given");
    await createTavilySearch()("from the environment");
    expect(other.requests).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
  });

  // The warning is once per process, so nothing before this test may use apiBaseURL.
  it("still takes the deprecated apiBaseURL, warning once per process", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const other = await another(server.apiKey);
    await createTavilySearch({ apiBaseURL: other.url })("old name");
    createTavilySearch({ apiBaseURL: other.url, baseURL: other.url });
    expect(other.requests).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("pass the same URL as baseURL"), {
      type: "DeprecationWarning",
      code: "FRAMEWORK_TAVILY_API_BASE_URL",
    });
  });

  it("refuses two different URLs, a baseURL that is not a URL and a bad timeoutMs", () => {
    expect(
      settingOf(() =>
        createTavilySearch({ baseURL: "http://127.0.0.1:1", apiBaseURL: "http://127.0.0.1:2" }),
      ),
    ).toBe("baseURL");
    expect(settingOf(() => createTavilySearch({ baseURL: "tavily" }))).toBe("baseURL");
    for (const timeoutMs of [0, -1, Number.NaN, 2 ** 31]) {
      expect(settingOf(() => createTavilySearch({ timeoutMs }))).toBe("timeoutMs");
    }
  });

  it("keeps the old name of the default base URL", () => {
    expect(defaultTavilyBaseURL).toBe("https://api.tavily.com");
    expect(defaultTavilyApiUrl).toBe(defaultTavilyBaseURL);
  });
});
