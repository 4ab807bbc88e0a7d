import type { Logger, ToolContext } from "@framework/core";
import type { EChartsOption } from "echarts";
import { describeError } from "../fetch/describe-error.js";
import { createYahooPriceSource } from "../fetch/fetch-price-table.js";
import { fetchPriceTableFrom } from "../fetch/price-table-source.js";
import type { StockArguments } from "../fetch/stock-arguments.js";
import type { StockToolsOptions } from "../stock-tools-options.js";
import type { PriceRow, PriceTable } from "../table/price-table.js";
import { type ChartFileName, type ChartKind, writeChartFiles } from "./chart-files.js";
import type { ChartSize } from "./chart-size.js";
import type { ChartRange } from "./chart-title.js";
import { renderChartHtml, renderChartPng } from "./render-chart.js";
import { staticChartOption } from "./static-chart.js";

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
  /** Where the files go; the charts directory (`FRAMEWORK_CHARTS_DIR`) when absent. */
  directory?: string;
}

/**
 * Renders the figure to HTML and PNG (the PNG without the zoom slider), writes both and logs
 * `Saved <kind> chart of <symbol>: <htmlPath> and <pngPath>`. A failure to render or write
 * is logged as `Error drawing chart for <symbol>: <error>` and gives `null`, since tools do
 * not throw into the agent.
 */
export async function saveStockFigure<Row extends PriceRow>(
  input: SaveStockFigureInput<Row>,
  logger: Logger,
): Promise<StockFigure<Row> | null> {
  const { option, table, size, name, title, directory } = input;
  try {
    const [html, png] = await Promise.all([
      renderChartHtml(option, size, title),
      renderChartPng(staticChartOption(option), size),
    ]);
    const { htmlPath, pngPath } = await writeChartFiles(name, { html, png }, directory);
    logger.info(`Saved ${name.kind} chart of ${table.symbol}: ${htmlPath} and ${pngPath}`);
    return { option, htmlPath, pngPath, table };
  } catch (error) {
    logger.warn(`Error drawing chart for ${table.symbol}: ${describeError(error)}`);
    return null;
  }
}

/** The lines both chart tools' descriptions end with: their arguments and what they return. */
export const chartToolUsage = [
  "Arguments: symbol (ticker, e.g. AAPL); start_date and end_date as YYYY-MM-DD, end_date later than start_date; interval such as 1d, 1wk or 1mo.",
  "Saves the chart as an HTML page and a PNG image and returns the figure, or None on failure.",
];

/** How one chart tool turns a price table into a figure. */
export interface StockChartRecipe<Row extends PriceRow> {
  kind: ChartKind;
  size: ChartSize;
  /** Adds the columns the chart draws. */
  derive(table: PriceTable): PriceTable<Row>;
  option(table: PriceTable<Row>, range: ChartRange): EChartsOption;
  title(table: PriceTable, range: ChartRange): string;
}

/** What the chart tools' settings are: Yahoo's and where the files go. */
export type ChartToolSettings = Pick<StockToolsOptions, "yahoo" | "chartsDirectory">;

/**
 * What every chart tool does: fetch the prices, add the recipe's columns, build its figure and
 * save it. `null` (nothing drawn) when the fetch or the drawing failed, each already logged.
 */
export async function drawStockChart<Row extends PriceRow>(
  recipe: StockChartRecipe<Row>,
  args: StockArguments,
  context: Pick<ToolContext, "signal" | "logger">,
  settings: ChartToolSettings = {},
): Promise<StockFigure<Row> | null> {
  const table = await fetchPriceTableFrom(createYahooPriceSource(settings.yahoo), args, context);
  if (!table) return null;
  const derived = recipe.derive(table);
  return saveStockFigure(
    {
      option: recipe.option(derived, args),
      table: derived,
      size: recipe.size,
      name: { ...args, symbol: table.symbol, kind: recipe.kind },
      title: recipe.title(table, args),
      ...(settings.chartsDirectory === undefined ? {} : { directory: settings.chartsDirectory }),
    },
    context.logger,
  );
}
