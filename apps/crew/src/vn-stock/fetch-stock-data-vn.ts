import { primaryFunction } from "@framework/core";
import { type PriceTable, priceTableToText, stockArguments } from "@framework/tools-finance";
import { z } from "zod";
import { fetchVnPriceTable } from "./fetch-vn-price-table.js";
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
 * on failure, after logging why. The crew registers it at runtime on every node.
 */
export const fetch_stock_data_vn = primaryFunction(
  {
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
  async function fetch_stock_data_vn(args, context) {
    return fetchVnPriceTable(args, context);
  },
);
