import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { getToolSpec } from "@framework/core";
import { createCapturingLogger } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ChartTestEnvironment,
  externalScripts,
  pngSize,
  setUpChartEnvironment,
} from "./test-chart-environment.js";
import { visualize_stock_data } from "./visualize-stock-data.js";

let env: ChartTestEnvironment;
let logger = createCapturingLogger();
const logged = () =>
  logger.entries
    .filter((entry) => entry.level !== "debug")
    .map((entry) => `${entry.level} ${entry.message}`);

beforeEach(async () => {
  env = await setUpChartEnvironment();
  logger = createCapturingLogger();
});
afterEach(() => env.dispose());

const args = { symbol: "AAPL", start_date: "2024-01-01", end_date: "2024-04-01" };

describe("visualize_stock_data", () => {
  it("writes an 800 px PNG and a self-contained page of candlesticks, MA20 and volume", async () => {
    const figure = await visualize_stock_data(args, { logger });
    const stem = "AAPL_candlestick_2024-01-01_2024-04-01_1d";
    expect(figure?.htmlPath).toBe(join(env.chartsDir, `${stem}.html`));
    expect(figure?.pngPath).toBe(join(env.chartsDir, `${stem}.png`));
    expect(await env.files()).toEqual([`${stem}.html`, `${stem}.png`]);
    expect(await pngSize(figure?.pngPath ?? "")).toEqual({ width: 1200, height: 800 });
    expect(logged()).toEqual([
      `info Saved candlestick chart of AAPL: ${figure?.htmlPath} and ${figure?.pngPath}`,
    ]);

    const rows = figure?.table.rows ?? [];
    expect(rows).toHaveLength(65);
    expect(rows.slice(0, 19).every((row) => row.MA20 === null)).toBe(true);
    const last20 = rows.slice(-20).reduce((sum, row) => sum + row.Close, 0) / 20;
    expect(rows.at(-1)?.MA20).toBeCloseTo(last20, 10);

    const html = await readFile(figure?.htmlPath ?? "", "utf8");
    expect(externalScripts(html)).toEqual([]);
    expect(html).not.toMatch(/https?:\/\/[^"'\s]*\.js\b/);
    expect(html).toContain("echarts.init(");
    const first = rows[0];
    expect(html).toContain(`[${first?.Open},${first?.Close},${first?.Low},${first?.High}]`);
    expect(html).toContain(`"${rows.at(-1)?.Date}"`);
  });

  it("builds the option with two panels, ECharts' candle order and the MA20 line", async () => {
    const figure = await visualize_stock_data(args, { logger });
    const option = figure?.option;
    const rows = figure?.table.rows ?? [];
    expect(option?.grid).toHaveLength(2);
    const series = option?.series as Array<{ type: string; name: string; data: unknown[] }>;
    expect(series.map((s) => [s.type, s.name])).toEqual([
      ["candlestick", "AAPL"],
      ["line", "MA20"],
      ["bar", "Volume"],
    ]);
    expect(series[0]?.data[5]).toEqual([
      rows[5]?.Open,
      rows[5]?.Close,
      rows[5]?.Low,
      rows[5]?.High,
    ]);
    expect(series[1]?.data.slice(18, 20)).toEqual([null, expect.any(Number)]);
    expect(series[2]?.data[5]).toMatchObject({ value: rows[5]?.Volume });
  });

  it("labels the volume axis and titles the chart with the last day the range covers", async () => {
    const figure = await visualize_stock_data(
      { symbol: "AAPL", start_date: "2024-01-01", end_date: "2025-01-01" },
      { logger },
    );
    const option = figure?.option as {
      title: { text: string; subtext?: string };
      yAxis: Array<{ name?: string }>;
    };
    expect(option.title.text).toBe("AAPL price and volume, 2024-01-01 to 2024-12-31 (1d)");
    expect(option.title.subtext).toBeUndefined();
    expect(option.yAxis.map((axis) => axis.name)).toEqual(["Price (USD)", "Volume"]);
  });

  it("draws no MA20 line or legend entry with fewer than 20 bars", async () => {
    const figure = await visualize_stock_data(
      { symbol: "AAPL", start_date: "2024-01-01", end_date: "2024-01-20" },
      { logger },
    );
    expect(figure?.table.rows.length).toBeLessThan(20);
    const series = figure?.option.series as Array<{ name: string }>;
    expect(series.map((s) => s.name)).toEqual(["AAPL", "Volume"]);
    expect(figure?.option.legend).toMatchObject({ data: ["AAPL", "Volume"] });
  });

  it("subtitles the chart and its page with FRAMEWORK_CHART_SUBTITLE", async () => {
    process.env.FRAMEWORK_CHART_SUBTITLE = "sample data, not market prices";
    const figure = await visualize_stock_data(args, { logger });
    expect(figure?.option.title).toMatchObject({ subtext: "sample data, not market prices" });
    const html = await readFile(figure?.htmlPath ?? "", "utf8");
    expect(html).toContain('"subtext":"sample data, not market prices"');
  });

  it("tells the model where the chart is and a few figures, not the option", async () => {
    const figure = await visualize_stock_data(args, { logger });
    const text = getToolSpec(visualize_stock_data).toModelOutput?.(figure) ?? "";
    expect(text).toContain(`Interactive chart: ${figure?.htmlPath}`);
    expect(text).toContain(`Image: ${figure?.pngPath}`);
    expect(text).toContain("65 bars from 2024-01-01 to 2024-03-29");
    expect(text).toMatch(/last MA20 \d+\.\d{2}/);
    expect(text.length).toBeLessThan(600);
  });

  it("draws nothing and logs the reason when end_date is not after start_date", async () => {
    const figure = await visualize_stock_data(
      { symbol: "AAPL", start_date: "2024-04-01", end_date: "2024-04-01" },
      { logger },
    );
    expect(figure).toBeNull();
    expect(logged()).toEqual([
      "warn Error fetching data for AAPL: end_date (2024-04-01) must be later than start_date (2024-04-01)",
    ]);
    expect(await env.files()).toEqual([]);
    expect(env.server.requests).toHaveLength(0);
  });

  it("draws nothing when the fetch gives null", async () => {
    expect(await visualize_stock_data({ symbol: "NOPE" }, { logger })).toBeNull();
    expect(logged()).toEqual([
      "warn Error fetching data for NOPE: No data found, symbol may be delisted",
    ]);
    expect(await env.files()).toEqual([]);
    expect(getToolSpec(visualize_stock_data).toModelOutput?.(null)).toMatch(
      /^null: no chart was drawn/,
    );
  });

  it("logs a chart directory it cannot write and returns null", async () => {
    const blocker = join(env.chartsDir, "not-a-directory");
    await import("node:fs/promises").then((fs) => fs.writeFile(blocker, ""));
    process.env.FRAMEWORK_CHARTS_DIR = join(blocker, "charts");
    expect(await visualize_stock_data(args, { logger })).toBeNull();
    const lines = logged();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn Error drawing chart for AAPL: ENOTDIR/);
    expect((await env.files()).map((name) => basename(name))).toEqual(["not-a-directory"]);
  });
});
