import { fakeZoneOffsetSeconds } from "./fake-exchange-clock.js";
import {
  type FakeYahooBar,
  type FakeYahooSeriesRequest,
  fakeYahooIntervals,
  fakeYahooSessionSeconds,
  isFakeYahooIntraday,
} from "./yahoo-price-series.js";
import type { FakeYahooSymbolProfile } from "./yahoo-symbol-profiles.js";

/** Yahoo's body for every chart failure: `{ chart: { result: null, error: { code, description } } }`. */
export function yahooChartErrorBody(code: string, description: string) {
  return { chart: { result: null, error: { code, description } } };
}

/** The body of an unknown symbol, exactly as Yahoo answers it with HTTP 404. */
export const yahooNotFoundBody = yahooChartErrorBody(
  "Not Found",
  "No data found, symbol may be delisted",
);

/**
 * Yahoo's other answer for a known symbol without data in the range: a result whose `meta`
 * is null, next to a `chart.error` saying so.
 */
export const yahooNullMetaBody = {
  chart: {
    result: [{ meta: null, indicators: { quote: [{}] } }],
    error: {
      code: "Not Found",
      description: "No data found for this date range, symbol may be delisted",
    },
  },
};

/** Yahoo's description of an interval it does not serve. */
export function yahooInvalidIntervalDescription(interval: string): string {
  return `Invalid input - interval=${interval} is not supported. Valid intervals: [${fakeYahooIntervals.join(", ")}]`;
}

const validRanges = ["1d", "5d", "1mo", "3mo", "6mo", "1y", "2y", "5y", "10y", "ytd", "max"];

/** Everything a chart body is made of. */
export interface YahooChartBodyInput {
  symbol: string;
  profile: FakeYahooSymbolProfile;
  request: FakeYahooSeriesRequest;
  /** The bars of the answer; none gives Yahoo's empty-result shape. */
  bars: readonly FakeYahooBar[];
  /** The symbol's full daily series, from which the `meta` block's market figures come. */
  daily: readonly FakeYahooBar[];
  /** The fake market's clock, unix seconds; unset, every session is over. */
  now?: number;
}

/**
 * A successful `/v8/finance/chart` body: `chart.result[0]` with a complete `meta` block,
 * `timestamp` and `indicators` (`quote[0]` and, for daily and longer bars, `adjclose[0]`).
 * With no bars it has Yahoo's empty shape: no `timestamp` and `quote: [{}]`.
 */
export function yahooChartBody({
  symbol,
  profile,
  request,
  bars,
  daily,
  now,
}: YahooChartBodyInput) {
  const meta = chartMeta(symbol, profile, request, bars, daily, now);
  const withAdjclose = !isFakeYahooIntraday(request.interval);
  if (bars.length === 0) {
    const indicators = withAdjclose ? { quote: [{}], adjclose: [{}] } : { quote: [{}] };
    return { chart: { result: [{ meta, indicators }], error: null } };
  }
  const column = (key: "open" | "high" | "low" | "close" | "volume") => bars.map((bar) => bar[key]);
  const quote = {
    open: column("open"),
    high: column("high"),
    low: column("low"),
    close: column("close"),
    volume: column("volume"),
  };
  const indicators = withAdjclose
    ? { quote: [quote], adjclose: [{ adjclose: column("close") }] }
    : { quote: [quote] };
  return {
    chart: {
      result: [{ meta, timestamp: bars.map((bar) => bar.timestamp), indicators }],
      error: null,
    },
  };
}

function chartMeta(
  symbol: string,
  profile: FakeYahooSymbolProfile,
  request: FakeYahooSeriesRequest,
  bars: readonly FakeYahooBar[],
  daily: readonly FakeYahooBar[],
  now: number | undefined,
) {
  const until = Math.min(request.period2, now ?? Number.POSITIVE_INFINITY);
  const todayIndex = Math.max(0, daily.filter((bar) => bar.timestamp < until).length - 1);
  const today = daily[todayIndex] as FakeYahooBar;
  const year = daily.slice(Math.max(0, todayIndex - 251), todayIndex + 1);
  const firstTimestamp = bars[0]?.timestamp ?? request.period1;
  const previous = daily.filter((bar) => bar.timestamp < firstTimestamp).at(-1);
  const open = today.timestamp;
  const close = open + fakeYahooSessionSeconds(profile);
  // Yahoo reports the offset in force when asked, which need not be that of every bar.
  const gmtoffset =
    now === undefined
      ? profile.gmtoffset
      : fakeZoneOffsetSeconds(profile.exchangeTimezoneName, now);
  const period = (start: number, end: number) => ({
    timezone: profile.timezone,
    start,
    end,
    gmtoffset,
  });
  return {
    currency: profile.currency,
    symbol: symbol.toUpperCase(),
    exchangeName: profile.exchangeName,
    fullExchangeName: profile.fullExchangeName,
    instrumentType: profile.instrumentType,
    firstTradeDate: daily[0]?.timestamp ?? null,
    regularMarketTime: now === undefined ? close : Math.min(now, close),
    hasPrePostMarketData: profile.instrumentType === "EQUITY",
    gmtoffset,
    timezone: profile.timezone,
    exchangeTimezoneName: profile.exchangeTimezoneName,
    regularMarketPrice: today.close,
    fiftyTwoWeekHigh: Math.max(...year.map((bar) => bar.high ?? -Infinity)),
    fiftyTwoWeekLow: Math.min(...year.map((bar) => bar.low ?? Infinity)),
    regularMarketDayHigh: today.high,
    regularMarketDayLow: today.low,
    regularMarketVolume: today.volume,
    longName: profile.longName,
    shortName: profile.shortName,
    chartPreviousClose: previous?.close ?? profile.startPrice,
    priceHint: 2,
    currentTradingPeriod: {
      pre: period(open - 5.5 * 3600, open),
      regular: period(open, close),
      post: period(close, close + 4 * 3600),
    },
    dataGranularity: request.interval,
    range: "",
    validRanges,
  };
}
