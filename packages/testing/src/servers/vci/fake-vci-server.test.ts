import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../server/fake-server.js";
import { startFakeVciServer, vciGapChartPath } from "./fake-vci-server.js";
import { vciFaults } from "./vci-faults.js";
import { generateFakeVciSeries, type VciOhlcSeries } from "./vci-price-series.js";

let server: FakeServer;

afterEach(async () => {
  await server.close();
});

async function gapChart(body: unknown, path = vciGapChartPath) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: text.startsWith("<") ? undefined : JSON.parse(text),
  };
}

// 2024-07-01 00:00 UTC, a Monday.
const july1 = Date.UTC(2024, 6, 1) / 1000;

describe("startFakeVciServer", () => {
  it("answers the gap-chart request with VCI's parallel arrays, prices in VND", async () => {
    server = await startFakeVciServer();
    const { status, json } = await gapChart({
      timeFrame: "ONE_DAY",
      symbols: ["FPT"],
      to: july1,
      countBack: 5,
    });
    expect(status).toBe(200);
    const [fpt] = json as VciOhlcSeries[];
    expect(Object.keys(fpt ?? {}).sort()).toEqual(
      [
        "symbol",
        "o",
        "h",
        "l",
        "c",
        "v",
        "t",
        "accumulatedVolume",
        "accumulatedValue",
        "minBatchTruncTime",
      ].sort(),
    );
    expect(fpt?.symbol).toBe("FPT");
    // The five weekdays before Monday 2024-07-01, stamped at 00:00 UTC.
    expect(fpt?.t).toEqual(
      ["06-24", "06-25", "06-26", "06-27", "06-28"].map((d) =>
        String(Date.parse(`2024-${d}T00:00:00Z`) / 1000),
      ),
    );
    expect(fpt?.minBatchTruncTime).toBe(fpt?.t[0]);
    for (let i = 0; i < 5; i++) {
      const [o, h, l, c] = [fpt!.o[i]!, fpt!.h[i]!, fpt!.l[i]!, fpt!.c[i]!];
      expect(h).toBeGreaterThanOrEqual(Math.max(o, c));
      expect(l).toBeLessThanOrEqual(Math.min(o, c));
      // Whole VND on the tick ladder: FPT trades above 50,000 VND, so in steps of 100.
      expect(c % 100).toBe(0);
      expect(c).toBeGreaterThan(20_000);
      expect(fpt!.v[i]).toBeGreaterThan(0);
    }
  });

  it("serves the same bars whatever the window, and index values in points", async () => {
    server = await startFakeVciServer();
    const wide = generateFakeVciSeries("VNINDEX", {
      timeFrame: "ONE_DAY",
      to: july1,
      countBack: 40,
    });
    const narrow = generateFakeVciSeries("VNINDEX", {
      timeFrame: "ONE_DAY",
      to: july1,
      countBack: 3,
    });
    expect(narrow?.c).toEqual(wide?.c.slice(-3));
    expect(wide?.c.every((value) => value > 300 && value < 3000)).toBe(true);
  });

  it("serves hourly and minute bars inside the trading session", async () => {
    server = await startFakeVciServer();
    const { json } = await gapChart({
      timeFrame: "ONE_HOUR",
      symbols: ["VCB"],
      to: july1,
      countBack: 7,
    });
    const [vcb] = json as VciOhlcSeries[];
    expect(vcb?.t).toHaveLength(7);
    // 09:00 Hanoi time is 02:00 UTC; the last session before Monday is Friday 2024-06-28.
    expect(vcb?.t[0]).toBe(String(Date.parse("2024-06-28T02:00:00Z") / 1000));
  });

  it("leaves unknown symbols out and answers [] when it knows none", async () => {
    server = await startFakeVciServer();
    const none = await gapChart({
      timeFrame: "ONE_DAY",
      symbols: ["ZZZ"],
      to: july1,
      countBack: 5,
    });
    expect(none).toMatchObject({ status: 200, json: [] });
    const some = await gapChart({
      timeFrame: "ONE_DAY",
      symbols: ["ZZZ", "VNM"],
      to: july1,
      countBack: 2,
    });
    expect((some.json as VciOhlcSeries[]).map((entry) => entry.symbol)).toEqual(["VNM"]);
  });

  it("rejects malformed bodies and unknown paths in Spring Boot's error shape", async () => {
    server = await startFakeVciServer();
    const bad = await gapChart({
      timeFrame: "ONE_WEEK",
      symbols: ["FPT"],
      to: july1,
      countBack: 5,
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ status: 400, error: "Bad Request", path: vciGapChartPath });
    const missing = await gapChart({}, "/api/chart/OHLCChart/other");
    expect(missing.status).toBe(404);
  });

  it("plays injected faults", async () => {
    server = await startFakeVciServer();
    server.injectFaults(vciFaults.rateLimited(), vciFaults.forbidden());
    const body = { timeFrame: "ONE_DAY", symbols: ["FPT"], to: july1, countBack: 1 };
    expect((await gapChart(body)).status).toBe(429);
    expect((await gapChart(body)).status).toBe(403);
    expect((await gapChart(body)).status).toBe(200);
    expect(server.requests.map((request) => request.json)).toEqual([body, body, body]);
  });
});
