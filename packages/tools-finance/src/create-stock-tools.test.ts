import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigurationError, getToolSpec, ToolRegistry } from "@framework/core";
import {
  createCapturingLogger,
  type FakeServer,
  startFakeVciServer,
  startFakeYahooServer,
  yahooTooManyRequests,
} from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { plot_returns } from "./chart/plot-returns.js";
import { visualize_stock_data } from "./chart/visualize-stock-data.js";
import { createStockTools } from "./create-stock-tools.js";
import { fetch_stock_data } from "./fetch/fetch-stock-data.js";

const servers: FakeServer[] = [];
const directories: string[] = [];
let logger = createCapturingLogger();

async function yahoo(): Promise<FakeServer> {
  const server = await startFakeYahooServer();
  servers.push(server);
  return server;
}

async function vci(): Promise<FakeServer> {
  const server = await startFakeVciServer();
  servers.push(server);
  return server;
}

async function chartsDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "tools-finance-factory-"));
  directories.push(directory);
  return directory;
}

const environment = [
  "YAHOO_FINANCE_URL",
  "YAHOO_TIMEOUT_MS",
  "VCI_API_URL",
  "VCI_TIMEOUT_MS",
  "FRAMEWORK_CHARTS_DIR",
  "FRAMEWORK_CHART_SUBTITLE",
];

// A server configures tools per tenant, so nothing here may come from the environment.
beforeEach(() => {
  for (const name of environment) vi.stubEnv(name, undefined);
  logger = createCapturingLogger();
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

const june = { start_date: "2024-06-03", end_date: "2024-06-08" };
const warnings = () =>
  logger.entries.filter((entry) => entry.level === "warn").map((entry) => entry.message);

function settingOf(create: () => unknown): string | undefined {
  try {
    create();
  } catch (error) {
    return ConfigurationError.isInstance(error) ? error.setting : "another error";
  }
  return undefined;
}

describe("createStockTools", () => {
  it("gives each set its own Yahoo and VCI baseURL, with no environment variable set", async () => {
    const [yahooA, yahooB, vciA, vciB] = [await yahoo(), await yahoo(), await vci(), await vci()];
    const tenantA = createStockTools({
      yahoo: { baseURL: yahooA.url },
      vci: { baseURL: vciA.url },
    });
    const tenantB = createStockTools({
      yahoo: { baseURL: `${yahooB.url}/` },
      vci: { baseURL: `${vciB.url}/` },
    });
    const [msft, nvda, fpt, vcb] = await Promise.all([
      tenantA.fetch_stock_data({ symbol: "MSFT", ...june }, { logger }),
      tenantB.fetch_stock_data({ symbol: "NVDA", ...june }, { logger }),
      tenantA.fetch_stock_data_vn({ symbol: "FPT", ...june }, { logger }),
      tenantB.fetch_stock_data_vn({ symbol: "VCB", ...june }, { logger }),
    ]);
    expect([msft?.symbol, nvda?.symbol, fpt?.symbol, vcb?.symbol]).toEqual([
      "MSFT",
      "NVDA",
      "FPT",
      "VCB",
    ]);
    expect(fpt?.currency).toBe("VND (thousands)");
    const symbols = (server: FakeServer) =>
      server.requests.map((request) => request.path.split("/").at(-1) ?? request.json);
    expect(symbols(yahooA)).toEqual(["MSFT"]);
    expect(symbols(yahooB)).toEqual(["NVDA"]);
    expect(vciA.requests.map((request) => request.json)).toMatchObject([{ symbols: ["FPT"] }]);
    expect(vciB.requests.map((request) => request.json)).toMatchObject([{ symbols: ["VCB"] }]);
    expect(warnings()).toEqual([]);
  });

  it("writes each set's charts into its own directory, fetched from its own Yahoo", async () => {
    const [yahooA, yahooB] = [await yahoo(), await yahoo()];
    const [chartsA, chartsB] = [await chartsDirectory(), await chartsDirectory()];
    const tenantA = createStockTools({ yahoo: { baseURL: yahooA.url }, chartsDirectory: chartsA });
    const tenantB = createStockTools({ yahoo: { baseURL: yahooB.url }, chartsDirectory: chartsB });
    const candles = await tenantA.visualize_stock_data({ symbol: "AAPL", ...june }, { logger });
    const returns = await tenantB.plot_returns({ symbol: "AAPL", ...june }, { logger });
    expect(candles?.htmlPath).toBe(join(chartsA, "AAPL_candlestick_2024-06-03_2024-06-08_1d.html"));
    expect(returns?.pngPath).toBe(join(chartsB, "AAPL_returns_2024-06-03_2024-06-08_1d.png"));
    expect((await readdir(chartsA)).sort()).toEqual([
      "AAPL_candlestick_2024-06-03_2024-06-08_1d.html",
      "AAPL_candlestick_2024-06-03_2024-06-08_1d.png",
    ]);
    expect(await readdir(chartsB)).toHaveLength(2);
    expect(yahooA.requests).toHaveLength(1);
    expect(yahooB.requests).toHaveLength(1);
  });

  it("wins over the environment, which the exported tools still read at each call", async () => {
    const [given, fromEnvironment] = [await yahoo(), await yahoo()];
    const [givenVci, vciFromEnvironment] = [await vci(), await vci()];
    const charts = await chartsDirectory();
    vi.stubEnv("YAHOO_FINANCE_URL", fromEnvironment.url);
    vi.stubEnv("YAHOO_TIMEOUT_MS", "not a number");
    vi.stubEnv("VCI_API_URL", vciFromEnvironment.url);
    vi.stubEnv("FRAMEWORK_CHARTS_DIR", join(charts, "from-environment"));
    const tools = createStockTools({
      yahoo: { baseURL: given.url, timeoutMs: 5_000 },
      vci: { baseURL: givenVci.url },
      chartsDirectory: charts,
    });
    expect(await tools.fetch_stock_data({ symbol: "AAPL", ...june }, { logger })).not.toBeNull();
    expect(await tools.fetch_stock_data_vn({ symbol: "FPT", ...june }, { logger })).not.toBeNull();
    const figure = await tools.plot_returns({ symbol: "AAPL", ...june }, { logger });
    expect(figure?.pngPath.startsWith(join(charts, "AAPL_"))).toBe(true);
    expect([given.requests.length, fromEnvironment.requests.length]).toEqual([2, 0]);
    expect([givenVci.requests.length, vciFromEnvironment.requests.length]).toEqual([1, 0]);

    vi.stubEnv("YAHOO_TIMEOUT_MS", undefined);
    expect(await fetch_stock_data({ symbol: "AAPL", ...june }, { logger })).not.toBeNull();
    expect(fromEnvironment.requests).toHaveLength(1);
    const fromDefault = await createStockTools().fetch_stock_data_vn(
      { symbol: "FPT", ...june },
      { logger },
    );
    expect(fromDefault).not.toBeNull();
    expect(vciFromEnvironment.requests).toHaveLength(1);
  });

  it("bounds each service by its own timeoutMs", async () => {
    const [stalledYahoo, stalledVci] = [await yahoo(), await vci()];
    stalledYahoo.injectFaults({ hang: true });
    stalledVci.injectFaults({ hang: true });
    const tools = createStockTools({
      yahoo: { baseURL: stalledYahoo.url, timeoutMs: 100 },
      vci: { baseURL: stalledVci.url, timeoutMs: 120 },
    });
    expect(await tools.fetch_stock_data({ symbol: "AAPL", ...june }, { logger })).toBeNull();
    expect(await tools.fetch_stock_data_vn({ symbol: "FPT", ...june }, { logger })).toBeNull();
    expect(warnings()).toEqual([
      "Error fetching data for AAPL: The operation was aborted due to timeout",
      `Error fetching data for FPT: no answer from ${stalledVci.url} within 120 ms`,
    ]);
  });

  it("sends every request through the given fetch", async () => {
    const [yahooServer, vciServer] = [await yahoo(), await vci()];
    const seen: string[] = [];
    const through =
      (target: string): typeof fetch =>
      async (input, init) => {
        const request = new Request(input, init);
        const { pathname, search } = new URL(request.url);
        seen.push(pathname);
        const body = request.method === "GET" ? undefined : await request.text();
        return fetch(`${target}${pathname}${search}`, {
          method: request.method,
          headers: request.headers,
          body,
          signal: request.signal,
        });
      };
    const tools = createStockTools({
      yahoo: { baseURL: "http://yahoo.invalid", fetch: through(yahooServer.url) },
      vci: { baseURL: "http://vci.invalid", fetch: through(vciServer.url) },
    });
    expect(await tools.fetch_stock_data({ symbol: "AAPL", ...june }, { logger })).not.toBeNull();
    expect(await tools.fetch_stock_data_vn({ symbol: "FPT", ...june }, { logger })).not.toBeNull();
    expect(seen).toEqual(["/v8/finance/chart/AAPL", "/api/chart/OHLCChart/gap-chart"]);
  });

  it("makes the exported tools: same names, parameters, descriptions and failure lines", async () => {
    const server = await yahoo();
    const tools = createStockTools({ yahoo: { baseURL: server.url } });
    const references = { fetch_stock_data, visualize_stock_data, plot_returns };
    for (const [name, reference] of Object.entries(references)) {
      const spec = getToolSpec(tools[name as keyof typeof references]);
      expect(spec.name).toBe(name);
      expect(spec.description).toBe(getToolSpec(reference).description);
      expect(spec.returns).toBe(getToolSpec(reference).returns);
      expect(spec.parameters).toBe(getToolSpec(reference).parameters);
    }
    const vnSpec = getToolSpec(tools.fetch_stock_data_vn);
    expect(vnSpec.name).toBe("fetch_stock_data_vn");
    expect(Object.keys(vnSpec.parameters.shape)).toEqual([
      "symbol",
      "start_date",
      "end_date",
      "interval",
    ]);

    server.injectFaults(yahooTooManyRequests);
    expect(await tools.fetch_stock_data({ symbol: "AAPL", ...june }, { logger })).toBeNull();
    expect(await tools.visualize_stock_data({ symbol: "ZZZZ", ...june }, { logger })).toBeNull();
    expect(warnings()).toEqual([
      "Error fetching data for AAPL: Yahoo Finance answered HTTP 429 Too Many Requests",
      "Error fetching data for ZZZZ: No data found, symbol may be delisted",
    ]);
  });

  it("is a tool module of its own: an agent can take the whole set", async () => {
    const registry = new ToolRegistry({ logger, cwd: process.cwd() });
    const records = await registry.registerModule(createStockTools());
    expect(records.map((record) => record.tool_name).sort()).toEqual([
      "fetch_stock_data",
      "fetch_stock_data_vn",
      "plot_returns",
      "visualize_stock_data",
    ]);
  });

  it("refuses a baseURL that is not a URL, a bad timeoutMs and an empty chartsDirectory", () => {
    expect(settingOf(() => createStockTools({ yahoo: { baseURL: "yahoo" } }))).toBe(
      "yahoo.baseURL",
    );
    expect(settingOf(() => createStockTools({ vci: { baseURL: "/relative" } }))).toBe(
      "vci.baseURL",
    );
    for (const timeoutMs of [0, -1, Number.NaN, 2 ** 31]) {
      expect(settingOf(() => createStockTools({ yahoo: { timeoutMs } }))).toBe("yahoo.timeoutMs");
      expect(settingOf(() => createStockTools({ vci: { timeoutMs } }))).toBe("vci.timeoutMs");
    }
    expect(settingOf(() => createStockTools({ chartsDirectory: " " }))).toBe("chartsDirectory");
    expect(settingOf(() => createStockTools({ yahoo: {}, vci: {} }))).toBeUndefined();
  });

  it("keeps the settings it was made with when the caller's object changes later", async () => {
    const [first, second] = [await yahoo(), await yahoo()];
    const options = { yahoo: { baseURL: first.url } };
    const tools = createStockTools(options);
    options.yahoo.baseURL = second.url;
    await tools.fetch_stock_data({ symbol: "AAPL", ...june }, { logger });
    expect([first.requests.length, second.requests.length]).toEqual([1, 0]);
  });
});
