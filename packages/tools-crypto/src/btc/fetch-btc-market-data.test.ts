import { ConfigurationError, getToolSpec } from "@framework/core";
import {
  coinDeskError,
  coinDeskFaults,
  createCapturingLogger,
  errorBodyFault,
  errorBodyShapes,
  type FakeCoinDeskServer,
  startFakeCoinDeskServer,
} from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createBtcMarketDataTool, fetch_btc_market_data } from "./fetch-btc-market-data.js";

const apiKey = "cd-test-key-5f1e9a7c3b";

const defaultSummary = [
  "--- BTC-USD Market Data ---",
  "Current Price: $97234.56 USD",
  "Day Change: 1113.69 (1.16%)",
  "Week Change: 3024.23 (3.21%)",
  "Month Change: 3805.36 (4.07%)",
  "24h Range: $95640.27 - $97620.91",
  "Year Change: 4.07%",
  "Volatility Context: Day High $97510.22 / Low $95870.40",
].join("\n");

let server: FakeCoinDeskServer;
let logger: ReturnType<typeof createCapturingLogger>;

async function useServer(options: Parameters<typeof startFakeCoinDeskServer>[0] = {}) {
  await server?.close();
  server = await startFakeCoinDeskServer(options);
  vi.stubEnv("COINDESK_API_URL", server.url);
}

beforeEach(async () => {
  logger = createCapturingLogger();
  vi.stubEnv("COINDESK_API_KEY", undefined);
  await useServer();
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

const run = (tool = fetch_btc_market_data, signal?: AbortSignal) =>
  tool({}, { logger, ...(signal ? { signal } : {}) });

describe("fetch_btc_market_data", () => {
  it("returns the eight-line summary, character for character", async () => {
    await expect(run()).resolves.toBe(defaultSummary);
    expect(logger.lines).toEqual([]);
  });

  it("sends exactly the spec's request, without Authorization when no key is set", async () => {
    await run();
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/index/cc/v1/latest/tick");
    expect([...(request?.url.searchParams ?? [])]).toEqual([
      ["market", "cadli"],
      ["instruments", "BTC-USD"],
      ["apply_mapping", "true"],
    ]);
    expect(request?.headers["content-type"]).toBe("application/json; charset=UTF-8");
    expect(request?.headers.authorization).toBeUndefined();
  });

  it("sends Authorization: Apikey <key> when COINDESK_API_KEY is set", async () => {
    await useServer({ apiKey });
    vi.stubEnv("COINDESK_API_KEY", apiKey);
    await expect(run()).resolves.toBe(defaultSummary);
    expect(server.requests[0]?.headers.authorization).toBe(`Apikey ${apiKey}`);
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json; charset=UTF-8");
  });

  it("reads the base URL at call time, with or without a trailing slash", async () => {
    vi.stubEnv("COINDESK_API_URL", `${server.url}/`);
    await expect(run()).resolves.toBe(defaultSummary);
    expect(server.requests[0]?.path).toBe("/index/cc/v1/latest/tick");
  });

  it("formats negative and rounded figures as the original did", async () => {
    await useServer({
      ticks: {
        "BTC-USD": {
          VALUE: 58999.995,
          CURRENT_DAY_CHANGE: -2345.678,
          CURRENT_DAY_CHANGE_PERCENTAGE: -3.8237,
          CURRENT_WEEK_CHANGE: -0.001,
          CURRENT_WEEK_CHANGE_PERCENTAGE: 0,
          CURRENT_MONTH_CHANGE: 4100.125,
          CURRENT_MONTH_CHANGE_PERCENTAGE: 7.5,
          CURRENT_YEAR_CHANGE_PERCENTAGE: -12.345,
          MOVING_24_HOUR_LOW: 58000,
          MOVING_24_HOUR_HIGH: 61345.6789,
          CURRENT_DAY_HIGH: 61300.1,
          CURRENT_DAY_LOW: 58100.02,
        },
      },
    });
    await expect(run()).resolves.toBe(
      [
        "--- BTC-USD Market Data ---",
        "Current Price: $59000.00 USD",
        "Day Change: -2345.68 (-3.82%)",
        "Week Change: -0.00 (0.00%)",
        "Month Change: 4100.12 (7.50%)",
        "24h Range: $58000.00 - $61345.68",
        "Year Change: -12.35%",
        "Volatility Context: Day High $61300.10 / Low $58100.02",
      ].join("\n"),
    );
  });

  describe("failures come back as text, never thrown", () => {
    it("401 with a wrong key quotes the API's Err.message, and never the key", async () => {
      await useServer({ apiKey: "the-right-key-000" });
      vi.stubEnv("COINDESK_API_KEY", apiKey);
      const text = await run();
      expect(text).toBe(
        "Error fetching BTC price: CoinDesk answered HTTP 401 Unauthorized: You need a valid auth key or api key to access this endpoint",
      );
      expect(logger.entries).toEqual([
        {
          level: "warn",
          message:
            "fetch_btc_market_data failed: CoinDesk answered HTTP 401 Unauthorized: You need a valid auth key or api key to access this endpoint",
        },
      ]);
      expect(`${text}\n${logger.lines.join("\n")}`).not.toContain(apiKey);
    });

    it("401 when the API wants a key and none is set", async () => {
      await useServer({ apiKey });
      await expect(run()).resolves.toBe(
        "Error fetching BTC price: CoinDesk answered HTTP 401 Unauthorized: You need a valid auth key or api key to access this endpoint",
      );
      expect(server.requests[0]?.headers.authorization).toBeUndefined();
    });

    it("500 with the error envelope", async () => {
      server.injectFaults(coinDeskFaults.serverError());
      await expect(run()).resolves.toBe(
        "Error fetching BTC price: CoinDesk answered HTTP 500 Internal Server Error: Internal server error, please try again later.",
      );
    });

    it("502 with a non-JSON body", async () => {
      server.injectFaults({ status: 502, body: "<html>Bad Gateway</html>" });
      await expect(run()).resolves.toBe(
        "Error fetching BTC price: CoinDesk answered HTTP 502 Bad Gateway",
      );
    });

    it.each(errorBodyShapes)("a %s error body from a gateway is quoted", async (shape) => {
      server.injectFaults(errorBodyFault(503, shape, "CoinDesk API is under maintenance"));
      const text = await run();
      expect(text).toMatch(
        /^Error fetching BTC price: CoinDesk answered HTTP 503 Service Unavailable: .*CoinDesk API is under maintenance/,
      );
    });

    it("429 quotes the rate-limit message", async () => {
      server.injectFaults(coinDeskFaults.rateLimited());
      await expect(run()).resolves.toBe(
        "Error fetching BTC price: CoinDesk answered HTTP 429 Too Many Requests: You are over your rate limit please upgrade your account!",
      );
    });

    it("a malformed JSON body", async () => {
      server.injectFaults(coinDeskFaults.malformedBody());
      const text = await run();
      expect(text).toMatch(
        /^Error fetching BTC price: the answer is not valid JSON \(\d+ characters\)$/,
      );
      expect(logger.entries.map((entry) => entry.level)).toEqual(["warn"]);
    });

    it("a body that echoes the key is not quoted, not even in part", async () => {
      vi.stubEnv("COINDESK_API_KEY", apiKey);
      server.injectFaults({ status: 200, body: `${apiKey.slice(0, 8)}|${apiKey}` });
      const text = await run();
      expect(text).toBe("Error fetching BTC price: the answer is not valid JSON (31 characters)");
      expect(JSON.stringify(logger.lines)).not.toContain(apiKey.slice(0, 8));
    });

    it("an empty 200 body", async () => {
      server.injectFaults({ status: 200, body: "" });
      await expect(run()).resolves.toMatch(
        /^Error fetching BTC price: the answer is not valid JSON \(.+\)$/,
      );
    });

    it("a missing field", async () => {
      await useServer({ ticks: { "BTC-USD": { CURRENT_DAY_HIGH: undefined } } });
      await expect(run()).resolves.toBe(
        "Error fetching BTC price: the BTC-USD data lacks numeric field CURRENT_DAY_HIGH",
      );
    });

    it("an answer without the BTC-USD instrument", async () => {
      server.injectFaults({ status: 200, body: { Data: { "ETH-USD": {} }, Err: {} } });
      await expect(run()).resolves.toBe("Error fetching BTC price: the answer has no BTC-USD data");
    });

    it("a 200 answer whose Err explains the missing instrument", async () => {
      server.injectFaults({
        status: 200,
        body: { Data: {}, Err: { type: 2, message: "Not found: instruments parameter." } },
      });
      await expect(run()).resolves.toBe(
        "Error fetching BTC price: CoinDesk reported: Not found: instruments parameter.",
      );
    });

    it("an unknown instrument answered with the API's 404 envelope", async () => {
      server.injectFaults(
        coinDeskError(404, {
          type: 2,
          message: "Not found: instruments parameter. Values BTC-USD not integrated yet.",
          other_info: { param: "instruments", values: ["BTC-USD"] },
        }),
      );
      await expect(run()).resolves.toBe(
        "Error fetching BTC price: CoinDesk answered HTTP 404 Not Found: Not found: instruments parameter. Values BTC-USD not integrated yet.",
      );
    });

    it("a network failure (nothing listening)", async () => {
      const url = server.url;
      await server.close();
      const port = new URL(url).port;
      await expect(run()).resolves.toBe(
        `Error fetching BTC price: could not reach ${url}: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`,
      );
    });

    it("a connection cut in the middle of the body", async () => {
      server.injectFaults({ status: 200, body: { Data: { "BTC-USD": {} } }, cutAfterBytes: 5 });
      await expect(run()).resolves.toMatch(
        /^Error fetching BTC price: the connection broke while the answer was being read: .+$/,
      );
    });

    it("a server that never answers, with a short time limit", async () => {
      server.injectFaults({ hang: true });
      const tool = createBtcMarketDataTool({ timeoutMs: 150 });
      await expect(run(tool)).resolves.toBe(
        `Error fetching BTC price: no answer from ${server.url} within 150 ms`,
      );
    });

    it("a cancelled agent run", async () => {
      server.injectFaults({ hang: true });
      const controller = new AbortController();
      const pending = run(fetch_btc_market_data, controller.signal);
      await vi.waitFor(() => expect(server.requests).toHaveLength(1));
      controller.abort();
      await expect(pending).resolves.toBe("Error fetching BTC price: the request was cancelled");
    });
  });
});

describe("createBtcMarketDataTool", () => {
  const others: FakeCoinDeskServer[] = [];
  afterEach(async () => {
    await Promise.all(others.splice(0).map((other) => other.close()));
  });

  async function another(options: Parameters<typeof startFakeCoinDeskServer>[0] = {}) {
    const other = await startFakeCoinDeskServer(options);
    others.push(other);
    return other;
  }

  // A server configures tools per tenant, so nothing here may come from the environment.
  beforeEach(() => {
    vi.stubEnv("COINDESK_API_URL", undefined);
  });

  it("gives each tool its own baseURL and key, with no environment variable set", async () => {
    const second = await another({ apiKey });
    const forFirst = createBtcMarketDataTool({ baseURL: server.url });
    const forSecond = createBtcMarketDataTool({ baseURL: `${second.url}/`, apiKey });
    await expect(Promise.all([run(forFirst), run(forSecond)])).resolves.toEqual([
      defaultSummary,
      defaultSummary,
    ]);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([undefined]);
    expect(second.requests.map((request) => request.headers.authorization)).toEqual([
      `Apikey ${apiKey}`,
    ]);
    expect(second.requests[0]?.path).toBe("/index/cc/v1/latest/tick");
  });

  it("wins over COINDESK_API_URL and COINDESK_API_KEY, which the default tool still reads per call", async () => {
    const keyed = await another({ apiKey });
    vi.stubEnv("COINDESK_API_URL", server.url);
    vi.stubEnv("COINDESK_API_KEY", "cd-environment-key-0b6a2e");
    await expect(run(createBtcMarketDataTool({ baseURL: keyed.url, apiKey }))).resolves.toBe(
      defaultSummary,
    );
    expect(keyed.requests[0]?.headers.authorization).toBe(`Apikey ${apiKey}`);
    await expect(run(createBtcMarketDataTool({ apiKey: "" }))).resolves.toBe(defaultSummary);
    await expect(run()).resolves.toBe(defaultSummary);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      undefined,
      "Apikey cd-environment-key-0b6a2e",
    ]);
  });

  it("keeps its key out of the failure text when the API echoes it", async () => {
    const tenantKey = "cd-tenant-key-93f1d0a4";
    server.injectFaults(
      coinDeskError(401, { type: 1, message: `Unknown key ${tenantKey}`, other_info: {} }),
    );
    const text = await run(createBtcMarketDataTool({ baseURL: server.url, apiKey: tenantKey }));
    expect(server.requests[0]?.headers.authorization).toBe(`Apikey ${tenantKey}`);
    expect(text).toBe(
      "Error fetching BTC price: CoinDesk answered HTTP 401 Unauthorized: Unknown key [REDACTED]",
    );
  });

  it("sends its request through the given fetch", async () => {
    const seen: string[] = [];
    const tool = createBtcMarketDataTool({
      baseURL: "http://coindesk.invalid",
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        seen.push(url.pathname);
        return fetch(`${server.url}${url.pathname}${url.search}`, init);
      },
    });
    await expect(run(tool)).resolves.toBe(defaultSummary);
    expect(seen).toEqual(["/index/cc/v1/latest/tick"]);
  });

  it("is the same tool as fetch_btc_market_data: name, parameters and failure texts", async () => {
    const spec = getToolSpec(createBtcMarketDataTool({ baseURL: server.url }));
    const reference = getToolSpec(fetch_btc_market_data);
    expect(spec.name).toBe("fetch_btc_market_data");
    expect(spec.description).toBe(reference.description);
    expect(spec.returns).toBe(reference.returns);
    expect(Object.keys(spec.parameters.shape)).toEqual([]);

    server.injectFaults(coinDeskFaults.rateLimited());
    await expect(run(createBtcMarketDataTool({ baseURL: server.url }))).resolves.toMatch(
      /^Error fetching BTC price: CoinDesk answered HTTP 429/,
    );
  });

  it("refuses a baseURL that is not a URL and a timeoutMs that is not a positive time limit", () => {
    const settingOf = (create: () => unknown) => {
      try {
        create();
      } catch (error) {
        return ConfigurationError.isInstance(error) ? error.setting : "another error";
      }
      return undefined;
    };
    expect(settingOf(() => createBtcMarketDataTool({ baseURL: "coindesk" }))).toBe("baseURL");
    for (const timeoutMs of [0, -5, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(settingOf(() => createBtcMarketDataTool({ timeoutMs }))).toBe("timeoutMs");
    }
  });
});
