import { readFile } from "node:fs/promises";
import { createCapturingLogger } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { candlestickChartSize, returnsChartSize } from "./chart-size.js";
import { plot_returns } from "./plot-returns.js";
import { renderChartPng } from "./render-chart.js";
import { staticChartOption } from "./static-chart.js";
import { type ChartTestEnvironment, setUpChartEnvironment } from "./test-chart-environment.js";
import { visualize_stock_data } from "./visualize-stock-data.js";

let env: ChartTestEnvironment;
beforeEach(async () => {
  env = await setUpChartEnvironment();
});
afterEach(() => env.dispose());

const zoomTypes = (option: { dataZoom?: unknown }) =>
  (option.dataZoom as Array<{ type: string }>).map((entry) => entry.type);
const args = { symbol: "AAPL", start_date: "2024-01-01", end_date: "2024-04-01" };

describe("staticChartOption", () => {
  it("drops the zoom slider and keeps everything else", () => {
    const option = {
      title: { text: "t" },
      dataZoom: [{ type: "inside" as const }, { type: "slider" as const }],
    };
    expect(staticChartOption(option)).toEqual({
      title: { text: "t" },
      dataZoom: [{ type: "inside" }],
    });
    expect(staticChartOption({ title: { text: "t" } })).toEqual({ title: { text: "t" } });
  });

  it("is what the PNG is drawn from, while the page keeps the slider", async () => {
    const logger = createCapturingLogger();
    const candles = await visualize_stock_data(args, { logger });
    const returns = await plot_returns(args, { logger });
    for (const [figure, size] of [
      [candles, candlestickChartSize],
      [returns, returnsChartSize],
    ] as const) {
      expect(zoomTypes(figure?.option ?? {})).toEqual(["inside", "slider"]);
      const png = await readFile(figure?.pngPath ?? "");
      const still = staticChartOption(figure?.option ?? {});
      expect(png.equals(await renderChartPng(still, size))).toBe(true);
      expect(png.equals(await renderChartPng(figure?.option ?? {}, size))).toBe(false);
    }
  });
});
