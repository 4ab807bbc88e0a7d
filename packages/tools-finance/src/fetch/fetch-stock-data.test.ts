import { createServer } from "node:net";
import { getToolSpec } from "@framework/core";
import {
  createCapturingLogger,
  type FakeServer,
  generateFakeYahooBars,
  startFakeYahooServer,
  yahooTooManyRequests,
} from "@framework/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetch_stock_data } from "./fetch-stock-data.js";

const seconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
const day = 86_400;

let server: FakeServer;
let previousUrl: string | undefined;
let logger = createCapturingLogger();

/** What the tool logged at info level and above, as `level message`. */
const logged = () =>
  logger.entries
    .filter((entry) => entry.level !== "debug")
    .map((entry) => `${entry.level} ${entry.message}`);

const call = (args: Parameters<typeof fetch_stock_data>[0]) => fetch_stock_data(args, { logger });

beforeAll(async () => {
  server = await startFakeYahooServer({ nullQuoteDates: ["2024-01-04"] });
  previousUrl = process.env.YAHOO_FINANCE_URL;
  process.env.YAHOO_FINANCE_URL = server.url;
});

afterAll(async () => {
  if (previousUrl === undefined) delete process.env.YAHOO_FINANCE_URL;
  else process.env.YAHOO_FINANCE_URL = previousUrl;
  await server.close();
});

beforeEach(() => {
  logger = createCapturingLogger();
  server.requests.length = 0;
});

describe("fetch_stock_data against the fake Yahoo server", () => {
  it("returns the fake's daily bars as a table with the spec's columns", async () => {
    const table = await call({ symbol: "AAPL", start_date: "2024-02-01", end_date: "2024-03-01" });
    const expected =
      generateFakeYahooBars("AAPL", {
        period1: seconds("2024-02-01"),
        period2: seconds("2024-03-01"),
        interval: "1d",
      }) ?? [];
    expect(expected).toHaveLength(21);
    expect(table).toEqual({
      symbol: "AAPL",
      interval: "1d",
      currency: "USD",
      rows: expected.map((bar) => ({
        Date: bar.date,
        Open: bar.open,
        High: bar.high,
        Low: bar.low,
        Close: bar.close,
        Volume: bar.volume,
      })),
    });
    expect(table?.rows[0]?.Date).toBe("2024-02-01");
    expect(table?.rows.at(-1)?.Date).toBe("2024-02-29");
    expect(logged()).toEqual([]);
  });

  it("asks Yahoo's chart path with period1, period2 and interval", async () => {
    await call({
      symbol: "msft",
      start_date: "2023-06-01",
      end_date: "2023-07-01",
      interval: "1wk",
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/v8/finance/chart/MSFT");
    // A day of margin each side; rows are cut back to the dates asked for.
    expect(request?.query).toMatchObject({
      period1: String(seconds("2023-06-01") - day),
      period2: String(seconds("2023-07-01") + day),
      interval: "1wk",
    });
  });

  it("applies the spec's defaults: 2020-01-01 to 2025-01-01, daily", async () => {
    const table = await call({ symbol: "NVDA" });
    expect(server.requests[0]?.query).toMatchObject({
      period1: String(seconds("2020-01-01") - day),
      period2: String(seconds("2025-01-01") + day),
      interval: "1d",
    });
    expect(table?.rows[0]?.Date).toBe("2020-01-01");
    expect(table?.rows.at(-1)?.Date).toBe("2024-12-31");
    // 1305 weekdays, less 2024-01-04, which the fake serves with null quotes.
    expect(table?.rows).toHaveLength(1304);
  });

  it("drops the bars Yahoo fills with nulls", async () => {
    const table = await call({ symbol: "AAPL", start_date: "2024-01-02", end_date: "2024-01-06" });
    expect(table?.rows.map((row) => row.Date)).toEqual(["2024-01-02", "2024-01-03", "2024-01-05"]);
  });

  it("dates rows by the exchange's local day, also east of UTC", async () => {
    const table = await call({
      symbol: "BHP.AX",
      start_date: "2024-01-08",
      end_date: "2024-01-10",
    });
    expect(table?.currency).toBe("AUD");
    expect(table?.rows.map((row) => row.Date)).toEqual(["2024-01-08", "2024-01-09"]);
  });

  it("dates intraday rows with ISO timestamps", async () => {
    const table = await call({
      symbol: "TSLA",
      start_date: "2024-03-04",
      end_date: "2024-03-05",
      interval: "1h",
    });
    expect(table?.rows.map((row) => row.Date)).toEqual([
      "2024-03-04T14:30:00.000Z",
      "2024-03-04T15:30:00.000Z",
      "2024-03-04T16:30:00.000Z",
      "2024-03-04T17:30:00.000Z",
      "2024-03-04T18:30:00.000Z",
      "2024-03-04T19:30:00.000Z",
      "2024-03-04T20:30:00.000Z",
    ]);
  });

  it("logs the spec's no-data line and returns null for a range without trading days", async () => {
    const table = await call({ symbol: "AAPL", start_date: "2024-01-06", end_date: "2024-01-08" });
    expect(table).toBeNull();
    expect(logged()).toEqual(["warn No data found for AAPL. Check the symbol or date range."]);
  });

  it("logs Yahoo's 404 for an unknown symbol", async () => {
    expect(await call({ symbol: "NOPE" })).toBeNull();
    expect(logged()).toEqual([
      "warn Error fetching data for NOPE: No data found, symbol may be delisted",
    ]);
  });

  it("logs a rate limit (HTTP 429)", async () => {
    server.injectFaults(yahooTooManyRequests);
    expect(await call({ symbol: "AAPL" })).toBeNull();
    expect(logged()).toEqual([
      "warn Error fetching data for AAPL: Yahoo Finance answered HTTP 429 Too Many Requests",
    ]);
  });

  it("logs a network failure", async () => {
    const port = await closedPort();
    process.env.YAHOO_FINANCE_URL = `http://127.0.0.1:${port}`;
    try {
      expect(await call({ symbol: "AAPL" })).toBeNull();
    } finally {
      process.env.YAHOO_FINANCE_URL = server.url;
    }
    expect(logged()).toEqual([
      `warn Error fetching data for AAPL: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`,
    ]);
  });

  it("logs a request that gets no answer within YAHOO_TIMEOUT_MS", async () => {
    server.injectFaults({ hang: true });
    process.env.YAHOO_TIMEOUT_MS = "100";
    try {
      expect(await call({ symbol: "AAPL" })).toBeNull();
    } finally {
      delete process.env.YAHOO_TIMEOUT_MS;
    }
    expect(logged()).toEqual([
      "warn Error fetching data for AAPL: The operation was aborted due to timeout",
    ]);
  });

  it("reports a YAHOO_TIMEOUT_MS that is not a positive number, without asking Yahoo", async () => {
    process.env.YAHOO_TIMEOUT_MS = "soon";
    try {
      expect(await call({ symbol: "AAPL" })).toBeNull();
    } finally {
      delete process.env.YAHOO_TIMEOUT_MS;
    }
    expect(logged()).toEqual([
      'warn Error fetching data for AAPL: YAHOO_TIMEOUT_MS must be a positive number of milliseconds up to 2147483647, got "soon"',
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it("logs a cancelled request", async () => {
    server.injectFaults({ hang: true });
    const controller = new AbortController();
    const pending = fetch_stock_data({ symbol: "AAPL" }, { logger, signal: controller.signal });
    // At least one: under load the previous test's timed-out request can reach the server after
    // the count was reset, and both arriving between two polls must not make this wait forever.
    await until(() => server.requests.length >= 1);
    controller.abort();
    expect(await pending).toBeNull();
    expect(logged()).toEqual(["warn Error fetching data for AAPL: This operation was aborted"]);
  });

  it.each([
    [
      { start_date: "2024-13-01" },
      'invalid start_date "2024-13-01": expected a calendar date in YYYY-MM-DD format',
    ],
    [
      { end_date: "2023-02-30" },
      'invalid end_date "2023-02-30": expected a calendar date in YYYY-MM-DD format',
    ],
    [
      { start_date: "01/02/2024" },
      'invalid start_date "01/02/2024": expected a calendar date in YYYY-MM-DD format',
    ],
    [
      { interval: "2h" },
      'invalid interval "2h": expected one of 1m, 2m, 5m, 15m, 30m, 60m, 90m, 1h, 1d, 5d, 1wk, 1mo, 3mo',
    ],
    [
      { start_date: "2024-06-01", end_date: "2024-01-01" },
      "end_date (2024-01-01) must be later than start_date (2024-06-01)",
    ],
  ])("logs invalid arguments %j without asking Yahoo", async (args, reason) => {
    expect(await call({ symbol: "AAPL", ...args })).toBeNull();
    expect(logged()).toEqual([`warn Error fetching data for AAPL: ${reason}`]);
    expect(server.requests).toHaveLength(0);
  });

  it("shows the model a compact text, not thousands of rows", async () => {
    const table = await call({ symbol: "AAPL" });
    const toModelOutput = getToolSpec(fetch_stock_data).toModelOutput;
    const text = toModelOutput?.(table) ?? "";
    const first = table?.rows[0];
    const last = table?.rows.at(-1);
    expect(table?.rows.length).toBeGreaterThan(1000);
    expect(text.length).toBeLessThan(1200);
    expect(text.split("\n").length).toBeLessThan(15);
    expect(text).toContain("1304 rows from 2020-01-01 to 2024-12-31");
    expect(text).toContain(`${first?.Date} | ${first?.Open.toFixed(2)}`);
    expect(text).toContain(`${last?.Date} | ${last?.Open.toFixed(2)}`);
    expect(text).toContain("... 1298 rows omitted ...");
    expect(text).toMatch(/^Period return: [+-]\d+\.\d{2}% \(close /m);
    expect(text).toMatch(/^Lowest close: .* on \d{4}-\d{2}-\d{2}; highest close: /m);
    expect(text).toMatch(/^Average volume: \d+$/m);
    expect(toModelOutput?.(null)).toMatch(/^null: no price table\./);
  });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
