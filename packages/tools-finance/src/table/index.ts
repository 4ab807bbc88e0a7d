export {
  type CumulativeReturnColumn,
  type DailyReturnColumn,
  type MovingAverageColumn,
  withCumulativeReturns,
  withDailyReturns,
  withMovingAverage,
} from "./derived-columns.js";
export {
  isIntradayInterval,
  isStockInterval,
  type PriceRow,
  type PriceTable,
  type StockInterval,
  stockIntervals,
} from "./price-table.js";
export {
  type PriceTableSummary,
  priceTableToText,
  summarizePriceTable,
} from "./price-table-summary.js";
