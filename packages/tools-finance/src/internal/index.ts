/**
 * Plumbing of `@framework/tools-finance`: the ECharts options, sizes and renderers behind the chart tools,
 * the text the model sees of a figure, chart file names and the Yahoo Finance request details.
 *
 * Unstable: anything here may change or go away in any release, minor or patch. Build on the
 * root export (`@framework/tools-finance`) instead.
 *
 * @packageDocumentation
 */
export { candlestickChartOption } from "../chart/candlestick-chart.js";
export { type ChartFileName, type ChartKind, chartFileStem } from "../chart/chart-files.js";
export { type ChartSize, candlestickChartSize, returnsChartSize } from "../chart/chart-size.js";
export type { ChartRange } from "../chart/chart-title.js";
export { returnsFigureToText } from "../chart/plot-returns.js";
export { renderChartHtml, renderChartPng, renderChartSvg } from "../chart/render-chart.js";
export { returnsChartOption } from "../chart/returns-chart.js";
export { candlestickFigureToText } from "../chart/visualize-stock-data.js";
export { yahooRequestTimeoutMs, yahooTimeoutMs } from "../fetch/fetch-price-table.js";
export { parseStockArguments } from "../fetch/stock-arguments.js";
export { defaultYahooFinanceUrl, yahooFinanceUrl } from "../fetch/yahoo-fetch.js";
