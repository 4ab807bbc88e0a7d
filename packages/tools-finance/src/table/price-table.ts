/** Every bar size Yahoo Finance serves, the intraday ones first. */
export const stockIntervals = [
  "1m",
  "2m",
  "5m",
  "15m",
  "30m",
  "60m",
  "90m",
  "1h",
  "1d",
  "5d",
  "1wk",
  "1mo",
  "3mo",
] as const;

/** One of {@link stockIntervals}. */
export type StockInterval = (typeof stockIntervals)[number];

const dailyOrLonger: ReadonlySet<StockInterval> = new Set(["1d", "5d", "1wk", "1mo", "3mo"]);

/** True for intervals shorter than a day, whose rows are dated with a full ISO timestamp. */
export function isIntradayInterval(interval: StockInterval): boolean {
  return !dailyOrLonger.has(interval);
}

/** True when `value` is one of {@link stockIntervals}. */
export function isStockInterval(value: string): value is StockInterval {
  return (stockIntervals as readonly string[]).includes(value);
}

/**
 * One bar of the historical price table. Column names are the spec's exactly, so a row
 * serialises to the same JSON a model or a file reader expects.
 */
export interface PriceRow {
  /**
   * The bar's exchange-local date, `YYYY-MM-DD`, by the exchange's own zone and its
   * daylight-saving rules for that date: the trading day for daily bars, the first day of
   * the week, month or quarter for `1wk`, `1mo` and `3mo`. For intraday intervals the bar's
   * start as an ISO 8601 UTC timestamp.
   */
  Date: string;
  Open: number;
  High: number;
  Low: number;
  Close: number;
  /** Shares (or units) traded; 0 when Yahoo reports none. */
  Volume: number;
}

/**
 * The historical price table: rows in date order, one per bar, indexed by `Date`. Plain data,
 * so `JSON.stringify` round-trips it. Derived-column helpers widen `Row`.
 */
export interface PriceTable<Row extends PriceRow = PriceRow> {
  /** The ticker as requested, upper-cased, e.g. `AAPL`. */
  symbol: string;
  interval: StockInterval;
  /** Currency of the prices, as Yahoo reports it, e.g. `USD`. */
  currency: string;
  rows: Row[];
  /**
   * True when the last row's interval is still being traded (a session under way, or a week
   * or month not over), so its prices will change; absent otherwise.
   */
  lastRowInProgress?: boolean;
}
