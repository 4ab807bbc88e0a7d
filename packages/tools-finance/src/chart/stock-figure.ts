import type { Logger } from "@framework/core";
import type { EChartsOption } from "echarts";
import { describeError } from "../fetch/describe-error.js";
import type { PriceRow, PriceTable } from "../table/price-table.js";
import { type ChartFileName, writeChartFiles } from "./chart-files.js";
import type { ChartSize } from "./chart-size.js";
import { renderChartHtml, renderChartPng } from "./render-chart.js";

/**
 * What the chart tools return: the figure (an ECharts option), where it was written, and the
 * table it was drawn from, derived columns included.
 */
export interface StockFigure<Row extends PriceRow = PriceRow> {
  /** The ECharts option; `echarts.init(el).setOption(option)` redraws the figure. */
  option: EChartsOption;
  /** The self-contained interactive page. */
  htmlPath: string;
  /** The static image. */
  pngPath: string;
  table: PriceTable<Row>;
}

/** What the model sees when a chart tool returned `null`. */
export const noChartText =
  "null: no chart was drawn. Either the price data could not be fetched (check the symbol, the dates YYYY-MM-DD with end_date later than start_date, and the interval) or the chart could not be rendered or saved; the tool's log line says which.";

/** Everything needed to save one figure. */
export interface SaveStockFigureInput<Row extends PriceRow> {
  option: EChartsOption;
  table: PriceTable<Row>;
  size: ChartSize;
  /** Names the files; see `chartFileStem`. */
  name: ChartFileName;
  /** The page title. */
  title: string;
}

/**
 * Renders the figure to HTML and PNG, writes both and logs
 * `Saved <kind> chart of <symbol>: <htmlPath> and <pngPath>`. A failure to render or write
 * is logged as `Error drawing chart for <symbol>: <error>` and gives `null`, since tools do
 * not throw into the agent.
 */
export async function saveStockFigure<Row extends PriceRow>(
  input: SaveStockFigureInput<Row>,
  logger: Logger,
): Promise<StockFigure<Row> | null> {
  const { option, table, size, name, title } = input;
  try {
    const [html, png] = await Promise.all([
      renderChartHtml(option, size, title),
      renderChartPng(option, size),
    ]);
    const { htmlPath, pngPath } = await writeChartFiles(name, { html, png });
    logger.info(`Saved ${name.kind} chart of ${table.symbol}: ${htmlPath} and ${pngPath}`);
    return { option, htmlPath, pngPath, table };
  } catch (error) {
    logger.warn(`Error drawing chart for ${table.symbol}: ${describeError(error)}`);
    return null;
  }
}
