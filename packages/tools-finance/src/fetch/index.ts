export {
  fetchPriceTable,
  yahooPriceSource,
  yahooRequestTimeoutMs,
  yahooTimeoutMs,
} from "./fetch-price-table.js";
export { fetch_stock_data } from "./fetch-stock-data.js";
export { fetchPriceTableFrom, type PriceTableSource } from "./price-table-source.js";
export {
  parseStockArguments,
  type StockArguments,
  type StockRequest,
  type StockRequestResult,
  stockArguments,
} from "./stock-arguments.js";
export { defaultYahooFinanceUrl, yahooFinanceUrl } from "./yahoo-fetch.js";
