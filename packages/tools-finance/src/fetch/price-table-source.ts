import type { ToolContext } from "@framework/core";
import type { PriceTable } from "../table/price-table.js";
import { parseStockArguments, type StockArguments, type StockRequest } from "./stock-arguments.js";

/** Where price tables come from: Yahoo Finance here, VCI in the crew app, or your own feed. */
export interface PriceTableSource {
  /** Fetches the table of a validated request. Throws on any failure. */
  request(
    request: StockRequest,
    context: Pick<ToolContext, "signal" | "logger">,
  ): Promise<PriceTable>;
  /** One line saying why `request` failed, for `Error fetching data for <symbol>: <error>`. */
  describeError(error: unknown): string;
}

/**
 * Fetches a price table from `source`, reporting every failure the spec's way as a warning:
 * `No data found for <symbol>. Check the symbol or date range.` for an empty result and
 * `Error fetching data for <symbol>: <error>` for anything else (bad arguments included),
 * each followed by `null`. Never throws.
 */
export async function fetchPriceTableFrom(
  source: PriceTableSource,
  args: StockArguments,
  context: Pick<ToolContext, "signal" | "logger">,
): Promise<PriceTable | null> {
  const parsed = parseStockArguments(args);
  if (!parsed.ok) {
    context.logger.warn(`Error fetching data for ${parsed.symbol}: ${parsed.reason}`);
    return null;
  }
  const { request } = parsed;
  let table: PriceTable;
  try {
    table = await source.request(request, context);
  } catch (error) {
    context.logger.warn(
      `Error fetching data for ${request.symbol}: ${source.describeError(error)}`,
    );
    return null;
  }
  if (table.rows.length === 0) {
    context.logger.warn(`No data found for ${request.symbol}. Check the symbol or date range.`);
    return null;
  }
  return table;
}
