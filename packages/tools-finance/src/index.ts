export {
  chartsDirectory,
  plot_returns,
  type ReturnsRow,
  type StockFigure,
  visualize_stock_data,
} from "./chart/index.js";
export { createStockTools, type StockTools } from "./create-stock-tools.js";
export {
  fetch_stock_data,
  fetchPriceTable,
  fetchPriceTableFrom,
  type PriceTableSource,
  type StockArguments,
  type StockRequest,
  type StockRequestResult,
  stockArguments,
  yahooPriceSource,
} from "./fetch/index.js";
export type { PriceServiceOptions, StockToolsOptions } from "./stock-tools-options.js";
export {
  type CumulativeReturnColumn,
  type DailyReturnColumn,
  isIntradayInterval,
  isStockInterval,
  type MovingAverageColumn,
  type PriceRow,
  type PriceTable,
  type PriceTableSummary,
  priceTableToText,
  type StockInterval,
  stockIntervals,
  summarizePriceTable,
  withCumulativeReturns,
  withDailyReturns,
  withMovingAverage,
} from "./table/index.js";
