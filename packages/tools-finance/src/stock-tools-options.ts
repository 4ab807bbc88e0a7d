import { ConfigurationError } from "@framework/core";

/**
 * Where a price service is reached. Each setting given wins over its environment variable;
 * each one left out is read from the environment at every call, never at import.
 */
export interface PriceServiceOptions {
  /** The service's base URL; a trailing `/` is ignored. */
  baseURL?: string;
  /** Time limit of one request, response body included, in milliseconds. */
  timeoutMs?: number;
  /** Replaces the global `fetch`, e.g. to route or record requests. */
  fetch?: typeof globalThis.fetch;
}

/** Options of `createStockTools`. */
export interface StockToolsOptions {
  /**
   * Yahoo Finance, for `fetch_stock_data` and both chart tools. `baseURL` defaults to
   * `YAHOO_FINANCE_URL`, else `https://query2.finance.yahoo.com` (Yahoo's query hosts are
   * redirected to it, a path prefix kept); `timeoutMs` to `YAHOO_TIMEOUT_MS`, else 30 000.
   */
  yahoo?: PriceServiceOptions;
  /**
   * VCI (Vietcap), for `fetch_stock_data_vn`. `baseURL` defaults to `VCI_API_URL`, else
   * `https://trading.vietcap.com.vn`; `timeoutMs` to `VCI_TIMEOUT_MS`, else 30 000.
   */
  vci?: PriceServiceOptions;
  /**
   * Where the chart tools write their files, relative to the working directory unless
   * absolute. Defaults to `FRAMEWORK_CHARTS_DIR`, else `./charts`; created when missing.
   */
  chartsDirectory?: string;
}

// Timers cannot wait longer than a signed 32-bit count of milliseconds.
const maxTimeoutMs = 2_147_483_647;

function checkService(service: "yahoo" | "vci", options: PriceServiceOptions | undefined): void {
  if (options?.baseURL !== undefined && !URL.canParse(options.baseURL)) {
    throw new ConfigurationError({
      setting: `${service}.baseURL`,
      message: `Stock tools: ${service}.baseURL is not a valid URL: "${options.baseURL}"`,
    });
  }
  const timeoutMs = options?.timeoutMs;
  if (
    timeoutMs !== undefined &&
    !(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= maxTimeoutMs)
  ) {
    throw new ConfigurationError({
      setting: `${service}.timeoutMs`,
      message: `Stock tools: ${service}.timeoutMs must be a positive number of milliseconds up to ${maxTimeoutMs}, got ${timeoutMs}`,
    });
  }
}

/**
 * Checks options a program gave (not the environment's, which are checked at each call and
 * reported the tools' way): a bad value is the program's mistake, told when it is made.
 *
 * @throws ConfigurationError naming the option.
 */
export function checkStockToolsOptions(options: StockToolsOptions): void {
  checkService("yahoo", options.yahoo);
  checkService("vci", options.vci);
  if (options.chartsDirectory !== undefined && options.chartsDirectory.trim() === "") {
    throw new ConfigurationError({
      setting: "chartsDirectory",
      message: "Stock tools: chartsDirectory is empty; leave it out to use ./charts",
    });
  }
}

/** `baseURL` without its trailing slashes. */
export function trimmedBaseURL(baseURL: string): string {
  return baseURL.replace(/\/+$/, "");
}
