import type { StockInterval } from "../table/price-table.js";
import { barEndDate, barStartDate, intradayIntervalMs } from "./bar-interval.js";

/** A bar with its time and its exchange-local date, before it becomes a table row. */
export interface DatedBar {
  /** The bar's stamp, milliseconds since the epoch. */
  time: number;
  /** The exchange-local date of `time`, `YYYY-MM-DD`. */
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

const dayMs = 86_400_000;

/** The length of bars cut by time rather than by the calendar: intraday ones and `5d`. */
function fixedLengthMs(interval: StockInterval): number | undefined {
  return intradayIntervalMs(interval) ?? (interval === "5d" ? 5 * dayMs : undefined);
}

function sameBar(a: DatedBar, b: DatedBar, interval: StockInterval): boolean {
  const length = fixedLengthMs(interval);
  if (length !== undefined) return b.time - a.time < length;
  return barStartDate(a.date, interval) === barStartDate(b.date, interval);
}

/**
 * Folds Yahoo's live row into its interval's bar, as yfinance does. During a session, and for
 * a while after it, Yahoo ends the series with a row stamped at the latest quote time rather
 * than at an interval's start, holding the session so far. When the row before it belongs to
 * the same interval, the two are one bar: for daily bars the live row holds the whole day and
 * replaces it (keeping its open), for other intervals it is merged in (high and low widened,
 * close from the live row, volumes added). A live row repeating the previous stamp adds
 * nothing and is dropped. Only the last two bars are looked at.
 */
export function foldLiveBar(bars: DatedBar[], interval: StockInterval): DatedBar[] {
  const live = bars.at(-1);
  const previous = bars.at(-2);
  if (!live || !previous) return bars;
  if (live.time === previous.time) return bars.slice(0, -1);
  if (!sameBar(previous, live, interval)) return bars;
  const merged: DatedBar = {
    ...previous,
    high: Math.max(previous.high, live.high),
    low: Math.min(previous.low, live.low),
    close: live.close,
    volume: interval === "1d" ? live.volume : previous.volume + live.volume,
  };
  return [...bars.slice(0, -2), merged];
}

/** What decides whether the latest bar is still being traded. */
export interface BarProgressInput {
  bar: DatedBar;
  interval: StockInterval;
  /** The current time, milliseconds since the epoch. */
  now: number;
  /** The exchange-local date at `now`. */
  today: string;
  /** End of the current regular session (`meta.currentTradingPeriod.regular.end`), ms. */
  sessionEnd?: number;
}

/**
 * True while `bar`'s interval has not ended, so its prices will still change: an intraday
 * bar until its length has passed, a daily bar until its session's close, a weekly, monthly
 * or quarterly bar until the calendar period is over.
 */
export function isBarInProgress({
  bar,
  interval,
  now,
  today,
  sessionEnd,
}: BarProgressInput): boolean {
  const length = fixedLengthMs(interval);
  if (length !== undefined) return now < bar.time + length;
  const start = barStartDate(bar.date, interval);
  const end = barEndDate(start, interval);
  if (end === undefined || today < start || today >= end) return false;
  if (interval === "1d" && sessionEnd !== undefined && now >= sessionEnd) return false;
  return true;
}
