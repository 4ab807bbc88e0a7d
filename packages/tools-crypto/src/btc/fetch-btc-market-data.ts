import { ConfigurationError, primaryFunction, redactSecrets } from "@framework/core";
import { z } from "zod";
import { fetchLatestTick } from "../coindesk/fetch-latest-tick.js";
import { btcInstrument, readBtcTick } from "./btc-tick.js";
import { formatBtcSummary } from "./format-btc-summary.js";

/**
 * Options of {@link createBtcMarketDataTool}. Each one given wins over its environment
 * variable; each one left out is read from the environment at every call, never at import.
 */
export interface BtcMarketDataToolOptions {
  /**
   * The CoinDesk data API's base URL; requests go to `{baseURL}/index/cc/v1/latest/tick`.
   * Defaults to `COINDESK_API_URL`, else `https://data-api.coindesk.com`.
   */
  baseURL?: string;
  /**
   * The API key, sent as `Authorization: Apikey <key>`. Defaults to `COINDESK_API_KEY`; an
   * empty string sends no key even when the variable is set.
   */
  apiKey?: string;
  /** Time limit of the whole request, body included, in milliseconds. Defaults to 15 000. */
  timeoutMs?: number;
  /** Replaces the global `fetch`, e.g. to route or record requests. */
  fetch?: typeof globalThis.fetch;
}

const defaultTimeoutMs = 15_000;
// Timers cannot wait longer than a signed 32-bit count of milliseconds.
const maxTimeoutMs = 2_147_483_647;

function checkOptions(options: BtcMarketDataToolOptions): void {
  if (options.baseURL !== undefined && !URL.canParse(options.baseURL)) {
    throw new ConfigurationError({
      setting: "baseURL",
      message: `fetch_btc_market_data: baseURL is not a valid URL: "${options.baseURL}"`,
    });
  }
  const { timeoutMs } = options;
  if (
    timeoutMs !== undefined &&
    !(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= maxTimeoutMs)
  ) {
    throw new ConfigurationError({
      setting: "timeoutMs",
      message: `fetch_btc_market_data: timeoutMs must be a positive number of milliseconds up to ${maxTimeoutMs}, got ${timeoutMs}`,
    });
  }
}

/**
 * Creates a `fetch_btc_market_data` tool with its own CoinDesk settings (base URL, key, time
 * limit, `fetch`), so two tools in one process can reach different accounts or services
 * without environment variables. Name, arguments, summary and failure texts are those of
 * {@link fetch_btc_market_data}, which is this with every setting read from the environment.
 *
 * @throws ConfigurationError when `baseURL` is not a URL or `timeoutMs` is not a positive
 *   number of milliseconds.
 *
 * @example
 * const btc = createBtcMarketDataTool({ apiKey: tenant.coinDeskKey, timeoutMs: 5_000 });
 */
export function createBtcMarketDataTool(options: BtcMarketDataToolOptions = {}) {
  checkOptions(options);
  const { baseURL, apiKey, fetch } = options;
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
          ...(baseURL === undefined ? {} : { baseURL }),
          ...(apiKey === undefined ? {} : { apiKey }),
          ...(fetch === undefined ? {} : { fetch }),
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
