import { primaryFunction } from "@framework/core";
import type { PriceServiceOptions } from "../stock-tools-options.js";
import { priceTableToText } from "../table/price-table-summary.js";
import { createYahooPriceSource } from "./fetch-price-table.js";
import { fetchPriceTableFrom } from "./price-table-source.js";
import { stockArguments } from "./stock-arguments.js";

/** A `fetch_stock_data` tool on Yahoo Finance reached with `yahoo`'s settings. */
export function createFetchStockDataTool(yahoo: PriceServiceOptions = {}) {
  const source = createYahooPriceSource(yahoo);
  return primaryFunction(
    {
      name: "fetch_stock_data",
      description: [
        "Fetch historical stock prices (Open, High, Low, Close, Volume per date) from Yahoo Finance.",
        "Arguments: symbol (ticker, e.g. AAPL); start_date and end_date as YYYY-MM-DD (end_date exclusive, later than start_date); interval such as 1d, 1wk or 1mo.",
        "Returns the table of historical prices, or None on failure (unknown symbol, empty range, invalid dates or interval, provider errors).",
      ].join("\n"),
      parameters: stockArguments,
      returns:
        "Table of historical prices (Date, Open, High, Low, Close, Volume), or None on failure",
      toModelOutput: priceTableToText,
    },
    (args, context) => fetchPriceTableFrom(source, args, context),
  );
}

/**
 * `fetch_stock_data(symbol, start_date, end_date, interval)`: historical prices from Yahoo
 * Finance as a `PriceTable`, or `null` after logging why (the spec's "prints").
 * The model sees the first and last rows and summary figures, not every row.
 */
export const fetch_stock_data = createFetchStockDataTool();
