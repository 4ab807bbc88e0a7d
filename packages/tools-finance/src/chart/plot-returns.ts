import { primaryFunction } from "@framework/core";
import { stockArguments } from "../fetch/stock-arguments.js";
import {
  type CumulativeReturnColumn,
  type DailyReturnColumn,
  withCumulativeReturns,
  withDailyReturns,
} from "../table/derived-columns.js";
import type { PriceRow } from "../table/price-table.js";
import { formatPercent } from "../table/price-table-summary.js";
import { returnsChartSize } from "./chart-size.js";
import { returnsChartOption, returnsChartTitle } from "./returns-chart.js";
import {
  type ChartToolSettings,
  chartToolUsage,
  drawStockChart,
  noChartText,
  type StockFigure,
} from "./stock-figure.js";

/** The rows `plot_returns` draws from. */
export type ReturnsRow = PriceRow & DailyReturnColumn & CumulativeReturnColumn;

/** A `plot_returns` tool drawing prices fetched and charts written with `settings`. */
export function createPlotReturnsTool(settings: ChartToolSettings = {}) {
  return primaryFunction(
    {
      name: "plot_returns",
      description: [
        "Plot the cumulative returns of a stock in percent over a period.",
        ...chartToolUsage,
      ].join("\n"),
      parameters: stockArguments,
      returns: "Figure of cumulative returns in percent, or None on failure",
      toModelOutput: returnsFigureToText,
    },
    (args, context) =>
      drawStockChart(
        {
          kind: "returns",
          size: returnsChartSize,
          derive: (table) => withCumulativeReturns(withDailyReturns(table)),
          option: returnsChartOption,
          title: returnsChartTitle,
        },
        args,
        context,
        settings,
      ),
  );
}

/**
 * `plot_returns(symbol, start_date, end_date, interval)`: fetches prices, adds
 * `Daily_Return` and `Cumulative_Return` and draws the cumulative return in percent (500 px
 * high), written as an HTML page and a PNG. Returns the figure, or `null` (nothing drawn).
 */
export const plot_returns = createPlotReturnsTool();

/** What the model sees of a returns figure: where it is, the final, best and worst returns. */
export function returnsFigureToText(figure: StockFigure<ReturnsRow> | null): string {
  if (!figure) return noChartText;
  const { rows, symbol, interval } = figure.table;
  const points = rows.flatMap((row) =>
    row.Cumulative_Return === null ? [] : [{ date: row.Date, value: row.Cumulative_Return }],
  );
  const last = points.at(-1);
  let figures = "Too few bars for a return (one bar only).";
  if (last) {
    const best = points.reduce((a, b) => (b.value > a.value ? b : a));
    const worst = points.reduce((a, b) => (b.value < a.value ? b : a));
    figures = `Cumulative return ${formatPercent(last.value)} at ${last.date}; highest ${formatPercent(best.value)} on ${best.date}; lowest ${formatPercent(worst.value)} on ${worst.date}.`;
  }
  return [
    `Cumulative returns chart of ${symbol} (${interval}): ${rows.length} bars from ${rows[0]?.Date} to ${rows.at(-1)?.Date}.`,
    figures,
    `Interactive chart: ${figure.htmlPath}`,
    `Image: ${figure.pngPath}`,
  ].join("\n");
}
