export { candlestickChartOption } from "./chart/candlestick-chart.js";
export {
  type ChartFileName,
  type ChartKind,
  chartFileStem,
  chartsDirectory,
} from "./chart/chart-files.js";
export { type ChartSize, candlestickChartSize, returnsChartSize } from "./chart/chart-size.js";
export type { ChartRange } from "./chart/chart-title.js";
export { plot_returns, type ReturnsRow, returnsFigureToText } from "./chart/plot-returns.js";
export { renderChartHtml, renderChartPng, renderChartSvg } from "./chart/render-chart.js";
export { returnsChartOption } from "./chart/returns-chart.js";
export type { StockFigure } from "./chart/stock-figure.js";
export { candlestickFigureToText, visualize_stock_data } from "./chart/visualize-stock-data.js";
export {
  fetchPriceTable,
  yahooPriceSource,
  yahooRequestTimeoutMs,
  yahooTimeoutMs,
} from "./fetch/fetch-price-table.js";
export { fetch_stock_data } from "./fetch/fetch-stock-data.js";
export { fetchPriceTableFrom, type PriceTableSource } from "./fetch/price-table-source.js";
export {
  parseStockArguments,
  type StockArguments,
  type StockRequest,
  type StockRequestResult,
  stockArguments,
} from "./fetch/stock-arguments.js";
export { defaultYahooFinanceUrl, yahooFinanceUrl } from "./fetch/yahoo-fetch.js";
export {
  type CumulativeReturnColumn,
  type DailyReturnColumn,
  type MovingAverageColumn,
  withCumulativeReturns,
  withDailyReturns,
  withMovingAverage,
} from "./table/derived-columns.js";
export {
  isIntradayInterval,
  isStockInterval,
  type PriceRow,
  type PriceTable,
  type StockInterval,
  stockIntervals,
} from "./table/price-table.js";
export {
  type PriceTableSummary,
  priceTableToText,
  summarizePriceTable,
} from "./table/price-table-summary.js";
