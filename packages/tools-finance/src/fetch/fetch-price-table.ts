import type { Logger, ToolContext } from "@framework/core";
import createYahooFinance from "yahoo-finance2/createYahooFinance";
import chart from "yahoo-finance2/modules/chart";
import { type PriceServiceOptions, trimmedBaseURL } from "../stock-tools-options.js";
import { isIntradayInterval, type PriceRow, type PriceTable } from "../table/price-table.js";
import { barStartDate } from "./bar-interval.js";
import { describeError } from "./describe-error.js";
import { exchangeDate } from "./exchange-clock.js";
import { type DatedBar, foldLiveBar, isBarInProgress } from "./live-bar.js";
import { fetchPriceTableFrom, type PriceTableSource } from "./price-table-source.js";
import type { StockArguments, StockRequest } from "./stock-arguments.js";
import { YahooEmptyAnswer } from "./yahoo-answer.js";
import { createYahooFetch, yahooFinanceUrl } from "./yahoo-fetch.js";

const YahooFinance = createYahooFinance({ modules: { chart } });

/** How long one request to Yahoo may take before it counts as failed, unless `YAHOO_TIMEOUT_MS` says otherwise. */
export const yahooRequestTimeoutMs = 30_000;

// Timers cannot wait longer than a signed 32-bit count of milliseconds.
const maxTimeoutMs = 2_147_483_647;

/**
 * `YAHOO_TIMEOUT_MS`, read now (never at import): the time limit of one request to Yahoo,
 * body included, in milliseconds; {@link yahooRequestTimeoutMs} when unset.
 *
 * @throws Error naming the variable when it is not a positive number of milliseconds.
 */
export function yahooTimeoutMs(): number {
  const raw = process.env.YAHOO_TIMEOUT_MS?.trim();
  if (!raw) return yahooRequestTimeoutMs;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > maxTimeoutMs) {
    throw new Error(
      `YAHOO_TIMEOUT_MS must be a positive number of milliseconds up to ${maxTimeoutMs}, got "${raw}"`,
    );
  }
  return value;
}

const day = 86_400;

/**
 * Yahoo Finance's chart API as a {@link PriceTableSource} with its own settings; those left
 * out are read from `YAHOO_FINANCE_URL` and `YAHOO_TIMEOUT_MS` at each request.
 */
export function createYahooPriceSource(settings: PriceServiceOptions = {}): PriceTableSource {
  return {
    request: (request, context) => requestPriceTable(request, context, settings),
    describeError,
  };
}

/** Yahoo Finance's chart API, through yahoo-finance2, as a {@link PriceTableSource}. */
export const yahooPriceSource: PriceTableSource = createYahooPriceSource();

/**
 * Fetches the price table the stock tools share from Yahoo Finance, reporting failures as
 * {@link fetchPriceTableFrom} does. Never throws.
 */
export function fetchPriceTable(
  args: StockArguments,
  context: Pick<ToolContext, "signal" | "logger">,
): Promise<PriceTable | null> {
  return fetchPriceTableFrom(yahooPriceSource, args, context);
}

async function requestPriceTable(
  request: StockRequest,
  context: Pick<ToolContext, "signal" | "logger">,
  settings: PriceServiceOptions,
): Promise<PriceTable> {
  const timeoutMs = settings.timeoutMs ?? yahooTimeoutMs();
  const client = new YahooFinance({
    fetch: createYahooFetch({
      baseURL:
        settings.baseURL === undefined ? yahooFinanceUrl() : trimmedBaseURL(settings.baseURL),
      signal: AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]),
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    }),
    logger: yahooLogger(context.logger),
    // Otherwise a schema mismatch makes yahoo-finance2 ask the npm registry for its version.
    versionCheck: false,
    suppressNotices: ["yahooSurvey"],
  });
  // A day of margin on each side: Yahoo stamps bars in UTC, so east of UTC a day's bar starts
  // on the previous UTC day; rows are then cut to the exchange-local dates asked for.
  const result = await client
    .chart(request.symbol, {
      period1: request.start - day,
      period2: request.end + day,
      interval: request.interval,
    })
    .catch((error: unknown) => {
      if (error instanceof YahooEmptyAnswer) return undefined;
      throw error;
    });
  if (!result) return emptyTable(request);
  const { meta } = result;
  const clock = { timeZone: meta.exchangeTimezoneName, fallbackOffsetSeconds: meta.gmtoffset };
  const bars: DatedBar[] = [];
  for (const quote of result.quotes) {
    const { open, high, low, close, volume } = quote;
    // Yahoo leaves holidays and gaps in as bars of nulls; such a bar is no trading day.
    if (open === null || high === null || low === null || close === null) continue;
    const time = quote.date.getTime();
    bars.push({
      time,
      date: exchangeDate(quote.date, clock),
      open,
      high,
      low,
      close,
      volume: volume ?? 0,
    });
  }
  const folded = foldLiveBar(bars, request.interval);
  const intraday = isIntradayInterval(request.interval);
  const rows: PriceRow[] = [];
  let last: DatedBar | undefined;
  for (const bar of folded) {
    const date = barStartDate(bar.date, request.interval);
    if (date < request.startDate || date >= request.endDate) continue;
    rows.push({
      Date: intraday ? new Date(bar.time).toISOString() : date,
      Open: bar.open,
      High: bar.high,
      Low: bar.low,
      Close: bar.close,
      Volume: bar.volume,
    });
    last = bar;
  }
  const now = Date.now();
  const sessionEnd = meta.currentTradingPeriod.regular.end;
  const inProgress =
    last !== undefined &&
    isBarInProgress({
      bar: last,
      interval: request.interval,
      now,
      today: exchangeDate(new Date(now), clock),
      sessionEnd: sessionEnd.getTime(),
    });
  return {
    symbol: request.symbol,
    interval: request.interval,
    currency: meta.currency,
    rows,
    ...(inProgress ? { lastRowInProgress: true } : {}),
  };
}

function emptyTable(request: StockRequest): PriceTable {
  return { symbol: request.symbol, interval: request.interval, currency: "", rows: [] };
}

/** yahoo-finance2's own chatter (runtime warnings, validation dumps) goes to debug. */
function yahooLogger(logger: Logger) {
  const text = (part: unknown) =>
    typeof part === "string" ? part : part instanceof Error ? part.message : JSON.stringify(part);
  const write = (...parts: unknown[]) =>
    logger.debug(`yahoo-finance2: ${parts.map(text).join(" ")}`);
  return { info: write, warn: write, error: write, debug: write, dir: write };
}
