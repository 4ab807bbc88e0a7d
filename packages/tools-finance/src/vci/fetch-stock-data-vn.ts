import { primaryFunction } from "@framework/core";
import { z } from "zod";
import { fetchPriceTableFrom } from "../fetch/price-table-source.js";
import { stockArguments } from "../fetch/stock-arguments.js";
import type { PriceServiceOptions } from "../stock-tools-options.js";
import type { PriceTable } from "../table/price-table.js";
import { priceTableToText } from "../table/price-table-summary.js";
import { createVciPriceSource } from "./vci-price-source.js";
import { vciPlans } from "./vci-request.js";

const vnStockArguments = stockArguments.extend({
  symbol: z
    .string()
    .min(1)
    .describe("Vietnamese ticker (HOSE, HNX, UPCOM), e.g. FPT, VCB, VNM, HPG, or VNINDEX"),
  interval: z
    .string()
    .default("1d")
    .describe(`Bar size, one of ${Object.keys(vciPlans).join(", ")}`),
});

/** What the model sees of a Vietnamese price table. */
export function vnPriceTableToText(table: PriceTable | null): string {
  if (!table) {
    return "null: no price table. The request failed or found no data; check the symbol (a Vietnamese ticker such as FPT, VCB or VNM, or VNINDEX), the dates (YYYY-MM-DD, end_date later than start_date) and the interval (e.g. 1d, 1wk, 1mo).";
  }
  return priceTableToText(table);
}

/**
 * `fetch_stock_data_vn(symbol, start_date, end_date, interval)`: historical prices of a
 * Vietnamese stock or index from VCI (Vietcap), the source vnstock uses, as the same
 * `PriceTable` that `fetch_stock_data` returns. Stock prices are in thousands of VND, as
 * Vietnamese quotes are read (`currency: "VND (thousands)"`); index values in points. `null`
 * on failure, after logging why. Made with the VCI settings `vci`; `createStockTools` is the
 * public way.
 */
export function createFetchStockDataVnTool(vci: PriceServiceOptions = {}) {
  const source = createVciPriceSource(vci);
  return primaryFunction(
    {
      name: "fetch_stock_data_vn",
      description: [
        "Fetch historical prices of a Vietnamese stock or index (HOSE, HNX, UPCOM) from VCI (Vietcap): Open, High, Low, Close, Volume per date.",
        "Arguments: symbol (e.g. FPT, VCB, VNM, or VNINDEX); start_date and end_date as YYYY-MM-DD (end_date exclusive, later than start_date); interval 1d, 1wk or 1mo (1m, 5m, 15m, 30m, 1h for recent days).",
        "Returns the table of historical prices with stock prices in thousands of VND (index values in points), or None on failure.",
      ].join("\n"),
      parameters: vnStockArguments,
      returns:
        "Table of historical prices (Date, Open, High, Low, Close, Volume) in thousands of VND, or None on failure",
      toModelOutput: vnPriceTableToText,
    },
    (args, context) => fetchPriceTableFrom(source, args, context),
  );
}
