import { primaryFunction } from "@framework/core";
import { stockArguments } from "../fetch/stock-arguments.js";
import { type MovingAverageColumn, withMovingAverage } from "../table/derived-columns.js";
import type { PriceRow } from "../table/price-table.js";
import { formatPercent, formatPrice, summarizePriceTable } from "../table/price-table-summary.js";
import { candlestickChartOption, candlestickChartTitle } from "./candlestick-chart.js";
import { candlestickChartSize } from "./chart-size.js";
import {
  type ChartToolSettings,
  chartToolUsage,
  drawStockChart,
  noChartText,
  type StockFigure,
} from "./stock-figure.js";

/** A `visualize_stock_data` tool drawing prices fetched and charts written with `settings`. */
export function createVisualizeStockDataTool(settings: ChartToolSettings = {}) {
  return primaryFunction(
    {
      name: "visualize_stock_data",
      description: [
        "Draw an interactive candlestick chart of a stock with its 20-day moving average (MA20) and volume bars.",
        ...chartToolUsage,
      ].join("\n"),
      parameters: stockArguments,
      returns: "The interactive figure (price and volume plot), or None on failure",
      toModelOutput: candlestickFigureToText,
    },
    (args, context) =>
      drawStockChart(
        {
          kind: "candlestick",
          size: candlestickChartSize,
          derive: (table) => withMovingAverage(table, 20),
          option: candlestickChartOption,
          title: candlestickChartTitle,
        },
        args,
        context,
        settings,
      ),
  );
}

/**
 * `visualize_stock_data(symbol, start_date, end_date, interval)`: fetches prices, adds MA20
 * and draws candlesticks, the MA20 line and volume bars (800 px high). "Displays" it by
 * writing an interactive HTML page and a PNG into the charts directory. Returns the figure,
 * or `null` (nothing drawn) when the fetch or the drawing failed.
 */
export const visualize_stock_data = createVisualizeStockDataTool();

/** What the model sees of a candlestick figure: where it is and a few figures from it. */
export function candlestickFigureToText(
  figure: StockFigure<PriceRow & MovingAverageColumn<20>> | null,
): string {
  const summary = figure && summarizePriceTable(figure.table);
  if (!figure || !summary) return noChartText;
  const lastAverage = figure.table.rows.at(-1)?.MA20;
  return [
    `Candlestick chart of ${figure.table.symbol} with MA20 and volume (${figure.table.interval}): ${summary.rowCount} bars from ${summary.first.Date} to ${summary.last.Date}.`,
    `Close ${formatPrice(summary.first.Close)} -> ${formatPrice(summary.last.Close)} (${formatPercent(summary.periodReturn)}); last MA20 ${lastAverage == null ? "n/a (fewer than 20 bars)" : formatPrice(lastAverage)}; average volume ${summary.averageVolume.toFixed(0)}.`,
    `Interactive chart: ${figure.htmlPath}`,
    `Image: ${figure.pngPath}`,
  ].join("\n");
}
