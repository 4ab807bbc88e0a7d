import { type FakeYahooInterval, generateFakeYahooBars } from "../yahoo/yahoo-price-series.js";
import { defaultFakeVciSymbols, type FakeVciSymbol } from "./vci-symbol-profiles.js";

/** The `timeFrame` values VCI's gap-chart endpoint accepts. */
export const vciTimeFrames = ["ONE_MINUTE", "ONE_HOUR", "ONE_DAY"] as const;

/** One of {@link vciTimeFrames}. */
export type VciTimeFrame = (typeof vciTimeFrames)[number];

/** The body of a gap-chart request, for one symbol. */
export interface VciChartRequest {
  timeFrame: VciTimeFrame;
  /** Unix seconds; only bars starting before it are served. */
  to: number;
  /** How many bars, counting back from `to`. */
  countBack: number;
}

/**
 * One symbol's entry in a gap-chart answer, as VCI sends it: parallel arrays, prices of stocks
 * in VND (vnstock divides them by 1000), index values in points, bar start times as strings
 * of unix seconds (daily bars at 00:00 UTC of the trading date).
 */
export interface VciOhlcSeries {
  symbol: string;
  o: number[];
  h: number[];
  l: number[];
  c: number[];
  v: number[];
  t: string[];
  /** Shares traded in each bar. */
  accumulatedVolume: number[];
  /** Value traded in each bar, in millions of VND. */
  accumulatedValue: number[];
  /** Start of the first bar, or `null` when there is none. */
  minBatchTruncTime: string | null;
}

/** What decides the fake VCI market's data. */
export interface FakeVciMarketOptions {
  /** Tickers known besides (or instead of) {@link defaultFakeVciSymbols}, by upper-case name. */
  symbols?: Record<string, FakeVciSymbol>;
}

const day = 86_400;
// The shared generator's session is 6.5 hours: 390 one-minute bars, 7 hourly bars a day.
const barsPerDay: Record<VciTimeFrame, number> = { ONE_MINUTE: 390, ONE_HOUR: 7, ONE_DAY: 1 };
const generatorInterval: Record<VciTimeFrame, FakeYahooInterval> = {
  ONE_MINUTE: "1m",
  ONE_HOUR: "60m",
  ONE_DAY: "1d",
};

/** The symbol's definition, or `undefined` when the fake does not know it. */
export function resolveFakeVciSymbol(
  symbol: string,
  options: FakeVciMarketOptions = {},
): FakeVciSymbol | undefined {
  return options.symbols?.[symbol] ?? defaultFakeVciSymbols[symbol];
}

/**
 * The gap-chart entry the fake VCI server answers for `symbol`: the last `countBack` bars
 * starting before `to`, from the same seeded weekday walk as the fake Yahoo server (so a
 * day's prices never depend on the range asked). `undefined` for an unknown symbol.
 */
export function generateFakeVciSeries(
  symbol: string,
  request: VciChartRequest,
  options: FakeVciMarketOptions = {},
): VciOhlcSeries | undefined {
  const known = resolveFakeVciSymbol(symbol, options);
  if (!known) return undefined;
  const perDay = barsPerDay[request.timeFrame];
  // Weekends and a week of margin, so that countBack trading bars fit in the window.
  const days = Math.ceil((request.countBack / perDay) * (7 / 5)) + 7;
  const bars =
    generateFakeYahooBars(
      symbol,
      {
        period1: request.to - days * day,
        period2: request.to + day,
        interval: generatorInterval[request.timeFrame],
      },
      { symbols: { [symbol.toUpperCase()]: known.profile } },
    ) ?? [];
  const stamped = bars
    .map((bar) => ({
      ...bar,
      start:
        request.timeFrame === "ONE_DAY"
          ? Date.parse(`${bar.date}T00:00:00Z`) / 1000
          : bar.timestamp,
    }))
    .filter((bar) => bar.start < request.to)
    .slice(-request.countBack);
  const quote = known.kind === "stock" ? toVnd : (points: number) => points;
  const series: VciOhlcSeries = {
    symbol,
    o: [],
    h: [],
    l: [],
    c: [],
    v: [],
    t: [],
    accumulatedVolume: [],
    accumulatedValue: [],
    minBatchTruncTime: null,
  };
  for (const bar of stamped) {
    const close = quote(bar.close ?? 0);
    const volume = bar.volume ?? 0;
    series.o.push(quote(bar.open ?? 0));
    series.h.push(quote(bar.high ?? 0));
    series.l.push(quote(bar.low ?? 0));
    series.c.push(close);
    series.v.push(volume);
    series.t.push(String(bar.start));
    series.accumulatedVolume.push(volume);
    series.accumulatedValue.push(Math.round((volume * close) / 10_000) / 100);
  }
  series.minBatchTruncTime = series.t[0] ?? null;
  return series;
}

/** Thousands of VND to VND on the HOSE tick ladder: 10 VND below 10,000, 50 below 50,000, else 100. */
function toVnd(thousands: number): number {
  const vnd = thousands * 1000;
  const tick = vnd < 10_000 ? 10 : vnd < 50_000 ? 50 : 100;
  return Math.round(vnd / tick) * tick;
}
