import { primaryFunction, redactSecrets } from "@framework/core";
import { z } from "zod";
import { fetchLatestTick } from "../coindesk/fetch-latest-tick.js";
import { btcInstrument, readBtcTick } from "./btc-tick.js";
import { formatBtcSummary } from "./format-btc-summary.js";

/** Options of {@link createBtcMarketDataTool}. */
export interface BtcMarketDataToolOptions {
  /** Time limit of the whole request, body included, in milliseconds. Defaults to 15 000. */
  timeoutMs?: number;
}

const defaultTimeoutMs = 15_000;

/**
 * Creates a `fetch_btc_market_data` tool with its own time limit. The exported
 * {@link fetch_btc_market_data} is this with the defaults.
 */
export function createBtcMarketDataTool(options: BtcMarketDataToolOptions = {}) {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  return primaryFunction(
    {
      name: "fetch_btc_market_data",
      description:
        "Fetch Bitcoin (BTC-USD) market data from the CoinDesk index API.\n" +
        "Returns a multi-line summary: current price, day, week and month change (absolute " +
        "and percent), the 24-hour range, the year change and the day's high and low. On " +
        "failure the text starts with `Error fetching BTC price:`.",
      parameters: z.object({}),
      returns: "str: multi-line summary of BTC-USD metrics",
    },
    async (_args, context): Promise<string> => {
      try {
        const body = await fetchLatestTick({
          market: "cadli",
          instruments: [btcInstrument],
          signal: context.signal,
          timeoutMs,
        });
        return formatBtcSummary(readBtcTick(body));
      } catch (error) {
        const reason = redactSecrets(error instanceof Error ? error.message : String(error));
        context.logger.warn(`fetch_btc_market_data failed: ${reason}`);
        return `Error fetching BTC price: ${reason}`;
      }
    },
  );
}

/**
 * A BTC-USD market summary from the CoinDesk index API (`COINDESK_API_URL`, optional
 * `COINDESK_API_KEY`): eight lines with price, changes and ranges, two decimals each. Never
 * throws: any failure comes back as `Error fetching BTC price: <reason>`.
 */
export const fetch_btc_market_data = createBtcMarketDataTool();
