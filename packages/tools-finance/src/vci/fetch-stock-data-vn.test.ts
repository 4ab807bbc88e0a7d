import { getToolSpec } from "@framework/core";
import {
  createCapturingLogger,
  type FakeServer,
  generateFakeVciSeries,
  startFakeServer,
  startFakeVciServer,
  vciErrorBody,
  vciFaults,
  vciGapChartPath,
} from "@framework/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createStockTools } from "../create-stock-tools.js";
import { vnPriceTableToText } from "./fetch-stock-data-vn.js";

// What the advisory crew registers: the tool with every setting read from the environment.
const { fetch_stock_data_vn } = createStockTools();

let vci: FakeServer;
const logger = createCapturingLogger();

beforeAll(async () => {
  vci = await startFakeVciServer();
  process.env.VCI_API_URL = vci.url;
});
afterAll(async () => {
  await vci.close();
  delete process.env.VCI_API_URL;
});
afterEach(() => {
  vci.requests.length = 0;
  logger.clear();
});

const june = { start_date: "2024-06-03", end_date: "2024-06-08" };

describe("fetch_stock_data_vn", () => {
  it("posts vnstock's gap-chart request to VCI_API_URL", async () => {
    await fetch_stock_data_vn({ symbol: "fpt", ...june }, { logger });
    const [request] = vci.requests;
    expect(request).toMatchObject({ method: "POST", path: vciGapChartPath });
    expect(request?.headers["content-type"]).toMatch(/^application\/json/);
    // `to` is a day past end_date; the count covers every weekday from the day before start_date.
    expect(request?.json).toEqual({
      timeFrame: "ONE_DAY",
      symbols: ["FPT"],
      to: Date.UTC(2024, 5, 9) / 1000,
      countBack: 7,
    });
  });

  it("returns the stock tools' price table, in thousands of VND, cut to [start_date, end_date)", async () => {
    const table = await fetch_stock_data_vn({ symbol: "FPT", ...june }, { logger });
    const served = generateFakeVciSeries("FPT", {
      timeFrame: "ONE_DAY",
      to: Date.UTC(2024, 5, 9) / 1000,
      countBack: 7,
    });
    expect(table).toMatchObject({ symbol: "FPT", interval: "1d", currency: "VND (thousands)" });
    expect(table?.rows.map((row) => row.Date)).toEqual([
      "2024-06-03",
      "2024-06-04",
      "2024-06-05",
      "2024-06-06",
      "2024-06-07",
    ]);
    const june3 = served!.t.indexOf(String(Date.UTC(2024, 5, 3) / 1000));
    expect(table?.rows[0]).toEqual({
      Date: "2024-06-03",
      Open: served!.o[june3]! / 1000,
      High: served!.h[june3]! / 1000,
      Low: served!.l[june3]! / 1000,
      Close: served!.c[june3]! / 1000,
      Volume: served!.v[june3],
    });
    expect(vnPriceTableToText(table)).toMatch(
      /^FPT price table, interval 1d, prices in VND \(thousands\): 5 rows from 2024-06-03 to 2024-06-07\./,
    );
  });

  it("keeps index values in points and groups daily bars into weeks", async () => {
    const table = await fetch_stock_data_vn(
      { symbol: "VNINDEX", start_date: "2024-06-03", end_date: "2024-06-29", interval: "1wk" },
      { logger },
    );
    expect(table?.currency).toBe("points");
    expect(table?.rows.map((row) => row.Date)).toEqual([
      "2024-06-03",
      "2024-06-10",
      "2024-06-17",
      "2024-06-24",
    ]);
    expect(table?.rows[0]?.Close).toBeGreaterThan(500);
  });

  it("reports an unknown symbol, VCI errors and bad arguments as the stock tools do, without throwing", async () => {
    expect(await fetch_stock_data_vn({ symbol: "ZZZ", ...june }, { logger })).toBeNull();
    vci.injectFaults(vciFaults.rateLimited());
    expect(await fetch_stock_data_vn({ symbol: "VCB", ...june }, { logger })).toBeNull();
    vci.injectFaults({ status: 200, body: "<html>maintenance</html>" });
    expect(await fetch_stock_data_vn({ symbol: "VCB", ...june }, { logger })).toBeNull();
    expect(
      await fetch_stock_data_vn(
        { symbol: "VCB", start_date: "2024-06-08", end_date: "2024-06-01" },
        { logger },
      ),
    ).toBeNull();
    expect(
      await fetch_stock_data_vn({ symbol: "VCB", ...june, interval: "3mo" }, { logger }),
    ).toBeNull();
    expect(logger.entries.map((entry) => `${entry.level} ${entry.message}`)).toEqual([
      "warn No data found for ZZZ. Check the symbol or date range.",
      "warn Error fetching data for VCB: VCI answered HTTP 429 Too Many Requests",
      expect.stringMatching(/^warn Error fetching data for VCB: the answer is not valid JSON/),
      "warn Error fetching data for VCB: end_date (2024-06-01) must be later than start_date (2024-06-08)",
      'warn Error fetching data for VCB: interval "3mo" is not served by VCI: use one of 1m, 5m, 15m, 30m, 1h, 60m, 1d, 1wk, 1mo',
    ]);
    // Argument errors are caught before any request.
    expect(vci.requests).toHaveLength(3);
  });

  it("quotes what an error body says: Spring Boot's message, a firewall's page", async () => {
    vci.injectFaults(
      {
        status: 400,
        body: { ...vciErrorBody(400, "Bad Request", "/x"), message: "symbols must not be empty" },
      },
      vciFaults.forbidden(),
    );
    expect(await fetch_stock_data_vn({ symbol: "VCB", ...june }, { logger })).toBeNull();
    expect(await fetch_stock_data_vn({ symbol: "VCB", ...june }, { logger })).toBeNull();
    expect(logger.entries.map((entry) => entry.message)).toEqual([
      "Error fetching data for VCB: VCI answered HTTP 400 Bad Request: symbols must not be empty",
      "Error fetching data for VCB: VCI answered HTTP 403 Forbidden",
    ]);
  });

  it("reports an unreachable service", async () => {
    const closed = await startFakeServer(() => ({}));
    await closed.close();
    process.env.VCI_API_URL = closed.url;
    try {
      expect(await fetch_stock_data_vn({ symbol: "FPT", ...june }, { logger })).toBeNull();
    } finally {
      process.env.VCI_API_URL = vci.url;
    }
    expect(logger.lines[0]).toMatch(
      new RegExp(`^Error fetching data for FPT: could not reach ${closed.url}: .*ECONNREFUSED`),
    );
  });

  it.each([
    ["never answers", { hang: true }],
    ["stalls in the middle of its body", undefined],
  ])("gives up on a service that %s after VCI_TIMEOUT_MS", async (_, fault) => {
    const stalled = await startFakeServer((_request, res) => {
      if (fault) return fault;
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"t": [1717372800');
      return undefined;
    });
    process.env.VCI_API_URL = stalled.url;
    process.env.VCI_TIMEOUT_MS = "200";
    try {
      expect(await fetch_stock_data_vn({ symbol: "FPT", ...june }, { logger })).toBeNull();
    } finally {
      process.env.VCI_API_URL = vci.url;
      delete process.env.VCI_TIMEOUT_MS;
      await stalled.close();
    }
    expect(logger.lines).toEqual([
      `Error fetching data for FPT: no answer from ${stalled.url} within 200 ms`,
    ]);
  });

  it("is a registrable tool with the stock tools' arguments and defaults", () => {
    const spec = getToolSpec(fetch_stock_data_vn);
    expect(spec.name).toBe("fetch_stock_data_vn");
    expect(Object.keys(spec.parameters.shape)).toEqual([
      "symbol",
      "start_date",
      "end_date",
      "interval",
    ]);
  });
});
