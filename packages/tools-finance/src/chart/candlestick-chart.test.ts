import { describe, expect, it } from "vitest";
import type { MovingAverageColumn } from "../table/derived-columns.js";
import { withMovingAverage } from "../table/derived-columns.js";
import type { PriceRow, PriceTable } from "../table/price-table.js";
import { candlestickChartOption } from "./candlestick-chart.js";
import { candlestickChartSize } from "./chart-size.js";
import { renderChartSvg } from "./render-chart.js";
import { staticChartOption } from "./static-chart.js";

/** Thirty daily bars whose tallest volume is `tallest`, just under a round figure. */
function tableWithTallestVolume(tallest: number): PriceTable<PriceRow & MovingAverageColumn<20>> {
  const rows = Array.from({ length: 30 }, (_, index): PriceRow => {
    const close = 100 + Math.sin(index / 3) * 10;
    return {
      Date: `2024-01-${String(index + 1).padStart(2, "0")}`,
      Open: close - 1,
      High: close + 2,
      Low: close - 3,
      Close: close,
      Volume: index === 17 ? tallest : Math.round(tallest * (0.3 + (index % 7) / 10)),
    };
  });
  return withMovingAverage({ symbol: "NVDA", interval: "1d", currency: "USD", rows });
}

/** The heights, in pixels, of the bars of series `seriesIndex` in a rendered SVG. */
function barHeights(svg: string, seriesIndex: number): number[] {
  const bars = svg.matchAll(
    new RegExp(
      `<path d="M[\\d.]+ [\\d.]+l[\\d.]+ 0l0 -([\\d.]+)l[^"]*"[^>]*ecmeta_series_index="${seriesIndex}"`,
      "g",
    ),
  );
  return [...bars].map((bar) => Number(bar[1]));
}

describe("candlestickChartOption", () => {
  it.each([599_782_637, 600_000_000, 95_000, 3])(
    "keeps the tallest volume bar (%d) clear of the volume panel's top edge",
    async (tallest) => {
      const option = candlestickChartOption(tableWithTallestVolume(tallest), {
        start_date: "2024-01-01",
        end_date: "2024-01-31",
      });
      const series = option.series as Array<{ name: string }>;
      const volume = series.findIndex((entry) => entry.name === "Volume");
      const panel = (option.grid as Array<{ height: number }>)[1]?.height ?? 0;
      const svg = await renderChartSvg(staticChartOption(option), candlestickChartSize);

      const heights = barHeights(svg, volume);
      expect(heights).toHaveLength(30);
      const highest = Math.max(...heights);
      // A bar as tall as the panel runs into the price panel's axis above it.
      expect(highest).toBeLessThanOrEqual(panel * 0.95);
      // Still a readable panel, not a row of stubs.
      expect(highest).toBeGreaterThan(panel * 0.5);
    },
  );
});
