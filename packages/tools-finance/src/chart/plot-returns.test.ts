import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { getToolSpec } from "@framework/core";
import { createCapturingLogger } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { plot_returns } from "./plot-returns.js";
import {
  type ChartTestEnvironment,
  externalScripts,
  pngSize,
  setUpChartEnvironment,
} from "./test-chart-environment.js";

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

describe("plot_returns", () => {
  it("writes a 500 px PNG and a self-contained page of cumulative returns in percent", async () => {
    const figure = await plot_returns(
      { symbol: "^GSPC", start_date: "2023-01-01", end_date: "2024-01-01", interval: "1wk" },
      { logger },
    );
    const stem = "_GSPC_returns_2023-01-01_2024-01-01_1wk";
    expect(figure?.htmlPath).toBe(join(env.chartsDir, `${stem}.html`));
    expect(await env.files()).toEqual([`${stem}.html`, `${stem}.png`]);
    expect(await pngSize(figure?.pngPath ?? "")).toEqual({ width: 1200, height: 500 });
    expect(logged()).toEqual([
      `info Saved returns chart of ^GSPC: ${figure?.htmlPath} and ${figure?.pngPath}`,
    ]);

    const rows = figure?.table.rows ?? [];
    const first = rows[0]?.Close ?? Number.NaN;
    const last = rows.at(-1);
    expect(rows[0]?.Cumulative_Return).toBeNull();
    expect(last?.Cumulative_Return).toBeCloseTo((last?.Close ?? 0) / first - 1, 10);
    const series = figure?.option.series as Array<{ data: Array<number | null> }>;
    const percent = series[0]?.data ?? [];
    // The curve starts at 0 % on the first day, though the table has no return for it.
    expect(percent[0]).toBe(0);
    expect(percent.at(-1)).toBeCloseTo(((last?.Close ?? 0) / first - 1) * 100, 3);

    const html = await readFile(figure?.htmlPath ?? "", "utf8");
    expect(externalScripts(html)).toEqual([]);
    expect(html).toContain(JSON.stringify(percent.slice(0, 3)).slice(1, -1));
  });

  it("titles the chart with the last day the range covers and the subtitle when set", async () => {
    process.env.FRAMEWORK_CHART_SUBTITLE = "sample data, not market prices";
    const figure = await plot_returns(
      { symbol: "TSLA", start_date: "2024-01-01", end_date: "2024-07-01" },
      { logger },
    );
    expect(figure?.option.title).toEqual({
      text: "TSLA cumulative returns, 2024-01-01 to 2024-06-30 (1d)",
      subtext: "sample data, not market prices",
      left: "center",
    });
  });

  it("tells the model the final, highest and lowest cumulative return", async () => {
    const figure = await plot_returns(
      { symbol: "TSLA", start_date: "2024-01-01", end_date: "2024-07-01" },
      { logger },
    );
    const text = getToolSpec(plot_returns).toModelOutput?.(figure) ?? "";
    expect(text).toMatch(/^Cumulative return [+-]\d+\.\d{2}% at 2024-06-28; highest /m);
    expect(text).toContain(`Image: ${figure?.pngPath}`);
  });

  it("draws nothing for an empty range", async () => {
    const figure = await plot_returns(
      { symbol: "AAPL", start_date: "2024-01-06", end_date: "2024-01-08" },
      { logger },
    );
    expect(figure).toBeNull();
    expect(logged()).toEqual(["warn No data found for AAPL. Check the symbol or date range."]);
    expect(await env.files()).toEqual([]);
  });
});
