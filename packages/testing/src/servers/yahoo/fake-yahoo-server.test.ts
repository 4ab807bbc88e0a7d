import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../server/fake-server.js";
import { startFakeYahooServer, yahooTooManyRequests } from "./fake-yahoo-server.js";
import { generateFakeYahooBars } from "./yahoo-price-series.js";

const seconds = (date: string) => Date.UTC(...ymd(date)) / 1000;
const ymd = (date: string): [number, number, number] => {
  const [y, m, d] = date.split("-").map(Number);
  return [y as number, (m as number) - 1, d as number];
};

interface ChartBody {
  chart: {
    result: Array<{
      meta: Record<string, unknown>;
      timestamp?: number[];
      indicators: {
        quote: Array<Record<string, Array<number | null>>>;
        adjclose?: Array<Record<string, Array<number | null>>>;
      };
    }> | null;
    error: { code: string; description: string } | null;
  };
}

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function chart(symbol: string, query: Record<string, string | number>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  const response = await fetch(`${server?.url}/v8/finance/chart/${symbol}?${params}`);
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as ChartBody };
}

describe("startFakeYahooServer", () => {
  it("serves a daily weekday series with a complete meta block", async () => {
    server = await startFakeYahooServer();
    const query = {
      period1: seconds("2024-01-01"),
      period2: seconds("2024-02-01"),
      interval: "1d",
    };
    const { status, body } = await chart("AAPL", query);
    expect(status).toBe(200);
    const result = body.chart.result?.[0];
    expect(body.chart.error).toBeNull();
    expect(result?.meta).toMatchObject({
      currency: "USD",
      symbol: "AAPL",
      exchangeName: "NMS",
      fullExchangeName: "NasdaqGS",
      instrumentType: "EQUITY",
      gmtoffset: -18000,
      timezone: "EST",
      exchangeTimezoneName: "America/New_York",
      longName: "Apple Inc.",
      priceHint: 2,
      dataGranularity: "1d",
      range: "",
    });
    for (const key of ["firstTradeDate", "regularMarketTime", "regularMarketPrice"]) {
      expect(typeof result?.meta[key]).toBe("number");
    }
    expect(Object.keys(result?.meta.currentTradingPeriod as object)).toEqual([
      "pre",
      "regular",
      "post",
    ]);
    const expected = generateFakeYahooBars("AAPL", { ...query, interval: "1d" }) ?? [];
    expect(expected).toHaveLength(23);
    expect(result?.timestamp).toEqual(expected.map((bar) => bar.timestamp));
    expect(result?.indicators.quote[0]?.close).toEqual(expected.map((bar) => bar.close));
    expect(result?.indicators.adjclose?.[0]?.adjclose).toEqual(expected.map((bar) => bar.close));
    for (const timestamp of result?.timestamp ?? []) {
      const date = new Date(timestamp * 1000);
      expect([1, 2, 3, 4, 5]).toContain(date.getUTCDay());
      expect(date.toISOString().slice(11, 16)).toBe("14:30");
    }
    for (const bar of expected) {
      expect(bar.high).toBeGreaterThanOrEqual(Math.max(bar.open ?? 0, bar.close ?? 0));
      expect(bar.low).toBeLessThanOrEqual(Math.min(bar.open ?? 0, bar.close ?? 0));
    }
  });

  it("gives a day the same bar whatever range is asked", () => {
    const day = { period1: seconds("2023-03-15"), period2: seconds("2023-03-16"), interval: "1d" };
    const year = { period1: seconds("2023-01-01"), period2: seconds("2024-01-01"), interval: "1d" };
    const single = generateFakeYahooBars("MSFT", { ...day, interval: "1d" });
    const within = generateFakeYahooBars("msft", { ...year, interval: "1d" });
    expect(single).toHaveLength(1);
    expect(within?.find((bar) => bar.date === "2023-03-15")).toEqual(single?.[0]);
  });

  it("answers a range without trading days with Yahoo's empty result", async () => {
    server = await startFakeYahooServer();
    const query = {
      period1: seconds("2024-01-06"),
      period2: seconds("2024-01-08"),
      interval: "1d",
    };
    const { status, body } = await chart("AAPL", query);
    expect(status).toBe(200);
    const result = body.chart.result?.[0];
    expect(result?.timestamp).toBeUndefined();
    expect(result?.indicators).toEqual({ quote: [{}], adjclose: [{}] });
    expect(result?.meta.symbol).toBe("AAPL");
  });

  it("answers an unknown symbol with Yahoo's 404 body", async () => {
    server = await startFakeYahooServer();
    const { status, body } = await chart("NOPE", { period1: 0, period2: 1, interval: "1d" });
    expect(status).toBe(404);
    expect(body).toEqual({
      chart: {
        result: null,
        error: { code: "Not Found", description: "No data found, symbol may be delisted" },
      },
    });
  });

  it("rejects bad input the way Yahoo does", async () => {
    server = await startFakeYahooServer();
    const badInterval = await chart("AAPL", { period1: 0, period2: 1, interval: "2h" });
    expect(badInterval.status).toBe(400);
    expect(badInterval.body.chart.error?.description).toMatch(/^Invalid input - interval=2h/);
    const reversed = await chart("AAPL", { period1: 200, period2: 100, interval: "1d" });
    expect(reversed.body.chart.error).toEqual({
      code: "Bad Request",
      description:
        "Invalid input - start date cannot be after end date. startDate = 200, endDate = 100",
    });
    const tooLong = await chart("AAPL", {
      period1: seconds("2024-01-01"),
      period2: seconds("2024-06-01"),
      interval: "5m",
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.chart.error?.code).toBe("Unprocessable Entity");
  });

  it("aggregates weeks from the daily bars and splits days into intraday bars", () => {
    const range = { period1: seconds("2024-03-04"), period2: seconds("2024-03-16") };
    const daily = generateFakeYahooBars("NVDA", { ...range, interval: "1d" }) ?? [];
    const weekly = generateFakeYahooBars("NVDA", { ...range, interval: "1wk" }) ?? [];
    expect(weekly.map((bar) => bar.date)).toEqual(["2024-03-04", "2024-03-11"]);
    const firstWeek = daily.slice(0, 5);
    expect(weekly[0]).toMatchObject({
      open: firstWeek[0]?.open,
      close: firstWeek[4]?.close,
      high: Math.max(...firstWeek.map((bar) => bar.high ?? 0)),
      low: Math.min(...firstWeek.map((bar) => bar.low ?? 0)),
      volume: firstWeek.reduce((sum, bar) => sum + (bar.volume ?? 0), 0),
    });
    const hourly =
      generateFakeYahooBars("NVDA", {
        period1: seconds("2024-03-04"),
        period2: seconds("2024-03-05"),
        interval: "1h",
      }) ?? [];
    expect(hourly.map((bar) => new Date(bar.timestamp * 1000).toISOString().slice(11, 16))).toEqual(
      ["14:30", "15:30", "16:30", "17:30", "18:30", "19:30", "20:30"],
    );
  });

  it("stamps daily bars east of UTC on the previous UTC day, like Yahoo", () => {
    const bars = generateFakeYahooBars("BHP.AX", {
      period1: seconds("2024-01-07"),
      period2: seconds("2024-01-09"),
      interval: "1d",
    });
    expect(bars?.map((bar) => bar.date)).toEqual(["2024-01-08", "2024-01-09"]);
    expect(new Date((bars?.[0]?.timestamp ?? 0) * 1000).toISOString()).toBe(
      "2024-01-07T23:00:00.000Z",
    );
  });

  it("serves null quotes on the dates asked for, and 429 through faults", async () => {
    server = await startFakeYahooServer({ nullQuoteDates: ["2024-01-03"] });
    server.injectFaults(yahooTooManyRequests);
    const query = {
      period1: seconds("2024-01-02"),
      period2: seconds("2024-01-05"),
      interval: "1d",
    };
    const limited = await chart("AAPL", query).catch(() => undefined);
    expect(limited).toBeUndefined();
    const { body } = await chart("AAPL", query);
    expect(body.chart.result?.[0]?.indicators.quote[0]?.close?.[1]).toBeNull();
    expect(body.chart.result?.[0]?.indicators.quote[0]?.close?.[0]).toEqual(expect.any(Number));
    expect(server.requests.map((request) => request.path)).toEqual([
      "/v8/finance/chart/AAPL",
      "/v8/finance/chart/AAPL",
    ]);
  });
});
