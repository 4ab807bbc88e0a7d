import { getToolSpec } from "@framework/core";
import {
  createCapturingLogger,
  errorBodyFault,
  type FakeServer,
  type FakeYahooServerOptions,
  generateFakeYahooBars,
  startFakeYahooServer,
} from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PriceTable } from "../table/price-table.js";
import { fetch_stock_data } from "./fetch-stock-data.js";

// Shapes real Yahoo answers have and the plain fake did not: bars dated across daylight-saving
// changes, the live row of a session under way, and the empty answers.
let server: FakeServer | undefined;
let logger = createCapturingLogger();
const previousUrl = process.env.YAHOO_FINANCE_URL;

async function serve(options: FakeYahooServerOptions = {}) {
  server = await startFakeYahooServer(options);
  process.env.YAHOO_FINANCE_URL = server.url;
  // The tool's clock is the fake market's: Date only, timers stay real.
  if (options.now) vi.useFakeTimers({ toFake: ["Date"], now: options.now });
}

beforeEach(() => {
  logger = createCapturingLogger();
});

afterEach(async () => {
  vi.useRealTimers();
  if (previousUrl === undefined) delete process.env.YAHOO_FINANCE_URL;
  else process.env.YAHOO_FINANCE_URL = previousUrl;
  await server?.close();
  server = undefined;
});

const logged = () =>
  logger.entries.filter((entry) => entry.level !== "debug").map((entry) => entry.message);

const call = (args: Parameters<typeof fetch_stock_data>[0]) =>
  fetch_stock_data(args, { logger }) as Promise<PriceTable | null>;

const dates = (table: PriceTable | null) => table?.rows.map((row) => row.Date) ?? [];

const months = (from: string, count: number) =>
  Array.from({ length: count }, (_, index) => {
    const [year, month] = from.split("-").map(Number) as [number, number];
    const date = new Date(Date.UTC(year, month - 1 + index, 1));
    return date.toISOString().slice(0, 10);
  });

const exchanges = [
  ["New York", "AAPL"],
  ["London", "HSBA.L"],
  ["Tokyo", "7203.T"],
  ["Ho Chi Minh City", "VNM.VN"],
] as const;

describe("bar dates in the exchange's own zone", () => {
  it.each(exchanges)(
    "dates %s monthly bars once per month across clock changes",
    async (_, symbol) => {
      await serve();
      const table = await call({
        symbol,
        start_date: "2023-01-01",
        end_date: "2025-01-01",
        interval: "1mo",
      });
      expect(dates(table)).toEqual(months("2023-01", 24));
      expect(logged()).toEqual([]);
    },
  );

  it.each(exchanges)("dates %s weekly bars on their Mondays", async (_, symbol) => {
    await serve();
    const table = await call({
      symbol,
      start_date: "2024-03-04",
      end_date: "2024-04-08",
      interval: "1wk",
    });
    expect(dates(table)).toEqual([
      "2024-03-04",
      "2024-03-11",
      "2024-03-18",
      "2024-03-25",
      "2024-04-01",
    ]);
  });

  it.each(exchanges)(
    "dates %s daily bars by the local trading day around clock changes",
    async (_, symbol) => {
      await serve();
      // New York changes its clocks on 10 March 2024, London on 31 March.
      const table = await call({ symbol, start_date: "2024-03-07", end_date: "2024-04-03" });
      const seconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
      const expected = generateFakeYahooBars(symbol, {
        period1: seconds("2024-03-06"),
        period2: seconds("2024-04-04"),
        interval: "1d",
      })
        ?.map((bar) => bar.date)
        .filter((date) => date >= "2024-03-07" && date < "2024-04-03");
      expect(expected).toHaveLength(19);
      expect(dates(table)).toEqual(expected);
    },
  );
});

describe("the live row of a session under way", () => {
  // Wednesday 6 March 2024, 12:00 in New York (EST): the session opened at 09:30.
  const midSession = new Date("2024-03-06T17:00:00Z");

  it("folds it into today's daily bar and says the bar is in progress", async () => {
    await serve({ now: midSession });
    const table = await call({ symbol: "AAPL", start_date: "2024-03-04", end_date: "2024-03-08" });
    expect(dates(table)).toEqual(["2024-03-04", "2024-03-05", "2024-03-06"]);
    expect(table?.lastRowInProgress).toBe(true);
    const text = getToolSpec(fetch_stock_data).toModelOutput?.(table) ?? "";
    expect(text).toContain("The last row (2024-03-06) is still in progress");
  });

  it("keeps the closed day's bar once the session is over", async () => {
    await serve({ now: new Date("2024-03-06T23:00:00Z") });
    const table = await call({ symbol: "AAPL", start_date: "2024-03-04", end_date: "2024-03-08" });
    expect(dates(table)).toEqual(["2024-03-04", "2024-03-05", "2024-03-06"]);
    expect(table).not.toHaveProperty("lastRowInProgress");
    const closed = generateFakeYahooBars("AAPL", {
      period1: Date.parse("2024-03-06T00:00:00Z") / 1000,
      period2: Date.parse("2024-03-07T00:00:00Z") / 1000,
      interval: "1d",
    })?.[0];
    expect(table?.rows.at(-1)).toMatchObject({ Close: closed?.close, Volume: closed?.volume });
  });

  it("merges it into this week's bar: one row per week, volumes added", async () => {
    await serve({ now: midSession });
    const table = await call({
      symbol: "AAPL",
      start_date: "2024-02-26",
      end_date: "2024-03-09",
      interval: "1wk",
    });
    expect(dates(table)).toEqual(["2024-02-26", "2024-03-04"]);
    expect(table?.lastRowInProgress).toBe(true);
    const daily = await call({ symbol: "AAPL", start_date: "2024-03-04", end_date: "2024-03-09" });
    const week = table?.rows.at(-1);
    const days = daily?.rows ?? [];
    expect(week).toEqual({
      Date: "2024-03-04",
      Open: days[0]?.Open,
      High: Math.max(...days.map((row) => row.High)),
      Low: Math.min(...days.map((row) => row.Low)),
      Close: days.at(-1)?.Close,
      Volume: days.reduce((sum, row) => sum + row.Volume, 0),
    });
  });

  it("dates a month's first session, sent only as the live row, by its month", async () => {
    await serve({ now: new Date("2024-04-01T15:00:00Z") });
    const table = await call({
      symbol: "AAPL",
      start_date: "2024-02-01",
      end_date: "2024-05-01",
      interval: "1mo",
    });
    expect(dates(table)).toEqual(["2024-02-01", "2024-03-01", "2024-04-01"]);
    expect(table?.lastRowInProgress).toBe(true);
  });

  it("merges it into the intraday bar under way", async () => {
    await serve({ now: new Date("2024-03-06T17:10:00Z") });
    const table = await call({
      symbol: "AAPL",
      start_date: "2024-03-06",
      end_date: "2024-03-07",
      interval: "1h",
    });
    expect(dates(table)).toEqual([
      "2024-03-06T14:30:00.000Z",
      "2024-03-06T15:30:00.000Z",
      "2024-03-06T16:30:00.000Z",
    ]);
    expect(table?.lastRowInProgress).toBe(true);
  });

  it("folds Tokyo's live row into its local day, east of UTC", async () => {
    // Friday 8 March 2024, 10:00 in Tokyo; still Thursday in UTC.
    await serve({ now: new Date("2024-03-08T01:00:00Z") });
    const table = await call({
      symbol: "7203.T",
      start_date: "2024-03-06",
      end_date: "2024-03-09",
    });
    expect(dates(table)).toEqual(["2024-03-06", "2024-03-07", "2024-03-08"]);
    expect(table?.currency).toBe("JPY");
    expect(table?.lastRowInProgress).toBe(true);
  });
});

describe("empty answers", () => {
  it.each(["no-timestamps", "null-meta"] as const)(
    "logs the spec's no-data line for a %s answer",
    async (emptyAnswer) => {
      await serve({ emptyAnswer });
      // The fake's series starts in 2010: no bar at all, even in the request's margin days.
      expect(
        await call({ symbol: "AAPL", start_date: "2009-01-05", end_date: "2009-01-10" }),
      ).toBeNull();
      expect(logged()).toEqual(["No data found for AAPL. Check the symbol or date range."]);
    },
  );

  it("logs the no-data line for a result with an empty timestamp list", async () => {
    await serve();
    server?.injectFaults({
      body: {
        chart: {
          result: [{ meta: { symbol: "AAPL" }, timestamp: [], indicators: { quote: [{}] } }],
          error: null,
        },
      },
    });
    expect(
      await call({ symbol: "AAPL", start_date: "2024-01-02", end_date: "2024-01-08" }),
    ).toBeNull();
    expect(logged()).toEqual(["No data found for AAPL. Check the symbol or date range."]);
  });
});

describe("error answers that are not Yahoo's chart envelope", () => {
  it("reports the status and message of a gateway's JSON error", async () => {
    await serve();
    server?.injectFaults({
      status: 401,
      body: {
        finance: { result: null, error: { code: "Unauthorized", description: "Invalid Crumb" } },
      },
    });
    expect(await call({ symbol: "AAPL" })).toBeNull();
    expect(logged()).toEqual([
      "Error fetching data for AAPL: Yahoo Finance answered HTTP 401 Unauthorized: Invalid Crumb",
    ]);
  });

  it("reports a proxy's HTML page by its title", async () => {
    await serve();
    server?.injectFaults(errorBodyFault(503, "html", "Service temporarily unavailable"));
    expect(await call({ symbol: "AAPL" })).toBeNull();
    expect(logged()).toEqual([
      "Error fetching data for AAPL: Yahoo Finance answered HTTP 503 Service Unavailable: Service temporarily unavailable",
    ]);
  });
});
