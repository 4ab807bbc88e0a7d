export { fetchPriceTable, yahooPriceSource } from "./fetch-price-table.js";
export { fetch_stock_data } from "./fetch-stock-data.js";
export { fetchPriceTableFrom, type PriceTableSource } from "./price-table-source.js";
export {
  type StockArguments,
  type StockRequest,
  type StockRequestResult,
  stockArguments,
} from "./stock-arguments.js";
