import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../server/fake-server.js";
import { fakeZoneDate, fakeZonedTime, fakeZoneOffsetSeconds } from "./fake-exchange-clock.js";
import { startFakeYahooServer } from "./fake-yahoo-server.js";
import { yahooNullMetaBody } from "./yahoo-chart-response.js";
import { generateFakeYahooBars } from "./yahoo-price-series.js";

const seconds = (instant: string) => Date.parse(instant) / 1000;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the fake exchange clock", () => {
  it.each([
    ["America/New_York", "2024-01-15", -18_000],
    ["America/New_York", "2024-07-15", -14_400],
    ["Europe/London", "2024-07-15", 3_600],
    ["Asia/Tokyo", "2024-07-15", 32_400],
    ["Asia/Ho_Chi_Minh", "2024-07-15", 25_200],
  ])("knows %s's offset on %s", (zone, date, offset) => {
    expect(fakeZoneOffsetSeconds(zone, seconds(`${date}T12:00:00Z`))).toBe(offset);
    expect(fakeZonedTime(zone, date, 0)).toBe(seconds(`${date}T00:00:00Z`) - offset);
    expect(fakeZoneDate(zone, fakeZonedTime(zone, date, 0))).toBe(date);
  });

  it("finds local times on the days the clocks change", () => {
    expect(fakeZonedTime("America/New_York", "2024-03-10", 9.5 * 3600)).toBe(
      seconds("2024-03-10T13:30:00Z"),
    );
    expect(fakeZonedTime("Europe/London", "2024-10-27", 8 * 3600)).toBe(
      seconds("2024-10-27T08:00:00Z"),
    );
  });
});

describe("the fake Yahoo series in exchange time", () => {
  it("stamps daily bars at the local open, daylight saving included", () => {
    const bars = generateFakeYahooBars("AAPL", {
      period1: seconds("2024-03-08T00:00:00Z"),
      period2: seconds("2024-03-12T00:00:00Z"),
      interval: "1d",
    });
    expect(bars?.map((bar) => new Date(bar.timestamp * 1000).toISOString())).toEqual([
      "2024-03-08T14:30:00.000Z",
      "2024-03-11T13:30:00.000Z",
    ]);
  });

  it("stamps monthly and weekly bars at local midnight of their first day", () => {
    const monthly = generateFakeYahooBars("HSBA.L", {
      period1: seconds("2024-02-15T00:00:00Z"),
      period2: seconds("2024-04-15T00:00:00Z"),
      interval: "1mo",
    });
    expect(monthly?.map((bar) => [bar.date, new Date(bar.timestamp * 1000).toISOString()])).toEqual(
      [
        ["2024-03-01", "2024-03-01T00:00:00.000Z"],
        ["2024-04-01", "2024-03-31T23:00:00.000Z"],
      ],
    );
    const weekly = generateFakeYahooBars("7203.T", {
      period1: seconds("2024-03-01T00:00:00Z"),
      period2: seconds("2024-03-12T00:00:00Z"),
      interval: "1wk",
    });
    expect(weekly?.map((bar) => bar.date)).toEqual(["2024-03-04", "2024-03-11"]);
    expect(weekly?.[0]?.timestamp).toBe(seconds("2024-03-03T15:00:00Z"));
  });
});

describe("the fake Yahoo market with a clock", () => {
  const query = (interval: string) =>
    new URLSearchParams({
      period1: String(seconds("2024-03-04T00:00:00Z")),
      period2: String(seconds("2024-03-08T00:00:00Z")),
      interval,
    });

  async function chart(interval: string) {
    const response = await fetch(`${server?.url}/v8/finance/chart/AAPL?${query(interval)}`);
    const body = (await response.json()) as {
      chart: { result: Array<{ meta: Record<string, unknown>; timestamp: number[] }> };
    };
    return body.chart.result[0];
  }

  it("ends a daily answer with the live row stamped at the quote time", async () => {
    const now = new Date("2024-03-06T17:00:00Z");
    server = await startFakeYahooServer({ now });
    const result = await chart("1d");
    expect(result?.timestamp.map((stamp) => new Date(stamp * 1000).toISOString())).toEqual([
      "2024-03-04T14:30:00.000Z",
      "2024-03-05T14:30:00.000Z",
      "2024-03-06T14:30:00.000Z",
      "2024-03-06T17:00:00.000Z",
    ]);
    expect(result?.meta).toMatchObject({
      regularMarketTime: seconds(now.toISOString()),
      gmtoffset: -18_000,
    });
  });

  it("leaves the session under way out of the week's bar and sends it as the live row", async () => {
    server = await startFakeYahooServer({ now: new Date("2024-03-06T17:00:00Z") });
    const result = await chart("1wk");
    expect(result?.timestamp.map((stamp) => new Date(stamp * 1000).toISOString())).toEqual([
      "2024-03-04T05:00:00.000Z",
      "2024-03-06T17:00:00.000Z",
    ]);
  });

  it("reports the offset in force at its clock", async () => {
    server = await startFakeYahooServer({ now: new Date("2024-07-10T15:00:00Z") });
    const response = await fetch(
      `${server.url}/v8/finance/chart/AAPL?period1=${seconds("2024-07-08T00:00:00Z")}&period2=${seconds("2024-07-11T00:00:00Z")}&interval=1d`,
    );
    const body = (await response.json()) as {
      chart: { result: Array<{ meta: { gmtoffset: number } }> };
    };
    expect(body.chart.result[0]?.meta.gmtoffset).toBe(-14_400);
  });

  it("answers an empty range with meta: null and chart.error when asked to", async () => {
    server = await startFakeYahooServer({ emptyAnswer: "null-meta" });
    const response = await fetch(
      `${server.url}/v8/finance/chart/AAPL?period1=0&period2=86400&interval=1d`,
    );
    expect(await response.json()).toEqual(yahooNullMetaBody);
  });
});
