import { fakeZonedTime } from "./fake-exchange-clock.js";
import { defaultFakeYahooSymbols, type FakeYahooSymbolProfile } from "./yahoo-symbol-profiles.js";

/** Every `interval` the fake Yahoo chart endpoint serves (the set yahoo-finance2 accepts). */
export const fakeYahooIntervals = [
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

/** One of {@link fakeYahooIntervals}. */
export type FakeYahooInterval = (typeof fakeYahooIntervals)[number];

/** One bar as the fake serves it; `null` values are the gaps Yahoo leaves on some days. */
export interface FakeYahooBar {
  /** Unix seconds, the bar's start. */
  timestamp: number;
  /** The exchange-local calendar date of the bar, `YYYY-MM-DD`. */
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
}

/** What decides the fake market's data, shared by the server and by tests that check it. */
export interface FakeYahooMarketOptions {
  /** Symbols known besides (or instead of) {@link defaultFakeYahooSymbols}, by upper-case symbol. */
  symbols?: Record<string, FakeYahooSymbolProfile>;
  /** Exchange-local dates (`YYYY-MM-DD`) whose daily bar is served with null quotes. */
  nullQuoteDates?: readonly string[];
  /**
   * The fake market's clock. Unset, every session of the series is over. Set, the series
   * stops at `now`: a session under way has a partial bar, and every answer ends with Yahoo's
   * live row for the latest session, stamped with the quote time instead of an interval start
   * (during a session `now`, after it the session's close), as Yahoo appends it during and
   * after trading. `meta.gmtoffset` is then the exchange's offset at `now`.
   */
  now?: Date;
}

/** The query of one chart request, already parsed. */
export interface FakeYahooSeriesRequest {
  /** Inclusive start, unix seconds. */
  period1: number;
  /** Exclusive end, unix seconds. */
  period2: number;
  interval: FakeYahooInterval;
}

const day = 86_400;
/**
 * UTC midnight (unix seconds) of 2010-01-04, a Monday, where every fake series starts; earlier
 * ranges get no bars. Anchoring the walk here keeps a day's bar independent of the range asked.
 */
export const fakeYahooSeriesStart = Date.UTC(2010, 0, 4) / 1000;
const seriesEnd = Date.UTC(2030, 11, 31) / 1000;
const defaultSessionSeconds = 6.5 * 3600;

/** How long the regular session of `profile` lasts, in seconds. */
export function fakeYahooSessionSeconds(profile: FakeYahooSymbolProfile): number {
  return profile.sessionSeconds ?? defaultSessionSeconds;
}

const intradayMinutes: Partial<Record<FakeYahooInterval, number>> = {
  "1m": 1,
  "2m": 2,
  "5m": 5,
  "15m": 15,
  "30m": 30,
  "60m": 60,
  "90m": 90,
  "1h": 60,
};

/** The profile of `symbol` (case-insensitive), or `undefined` when the fake does not know it. */
export function resolveFakeYahooSymbol(
  symbol: string,
  options: FakeYahooMarketOptions = {},
): FakeYahooSymbolProfile | undefined {
  const key = symbol.toUpperCase();
  return options.symbols?.[key] ?? defaultFakeYahooSymbols[key];
}

/** True for intervals shorter than a day. */
export function isFakeYahooIntraday(interval: FakeYahooInterval): boolean {
  return intradayMinutes[interval] !== undefined;
}

/**
 * The bars the fake Yahoo server answers for `symbol` and `request`: a seeded random walk over
 * weekdays from 2010-01-04 to 2030-12-31, so every run and every range sees the same prices.
 * Daily bars are stamped at the session's open, weekly, monthly and quarterly bars at the
 * exchange-local midnight starting them, as Yahoo stamps them. With `options.now`, the live
 * row described there comes last. Returns `undefined` for an unknown symbol.
 */
export function generateFakeYahooBars(
  symbol: string,
  request: FakeYahooSeriesRequest,
  options: FakeYahooMarketOptions = {},
): FakeYahooBar[] | undefined {
  const profile = resolveFakeYahooSymbol(symbol, options);
  if (!profile) return undefined;
  const key = symbol.toUpperCase();
  const market = marketAt(key, profile, options.now);
  const inRange = (bar: FakeYahooBar) =>
    bar.timestamp >= request.period1 && bar.timestamp < request.period2;
  const live = market.live && inRange(market.live) ? [market.live] : [];
  const minutes = intradayMinutes[request.interval];
  if (minutes !== undefined) {
    const now = market.live?.timestamp ?? Number.POSITIVE_INFINITY;
    const bars = market.days
      .filter((bar) => bar.timestamp + day > request.period1 && bar.timestamp < request.period2)
      .flatMap((bar) => intradayBars(key, bar, minutes, request.interval, profile))
      .filter((bar) => inRange(bar) && bar.timestamp <= now);
    const last = bars.at(-1);
    const liveQuote = last &&
      live[0] && { ...live[0], open: last.close, high: last.close, low: last.close, volume: 0 };
    return liveQuote ? [...bars, liveQuote] : bars;
  }
  if (request.interval === "1d") {
    const nullDates = new Set(options.nullQuoteDates ?? []);
    const days = market.days
      .filter(inRange)
      .map((bar) => (nullDates.has(bar.date) ? withNullQuotes(bar) : bar));
    return [...days, ...live];
  }
  // Yahoo leaves the session under way out of the longer bar and sends it as the live row.
  const settled = market.live ? market.days.slice(0, -1) : market.days;
  return [...aggregate(settled, request.interval, profile).filter(inRange), ...live];
}

interface FakeMarket {
  /** Daily bars of the sessions opened by then; the one under way is partial. */
  days: FakeYahooBar[];
  /** The live row of the latest session, when the market has a clock. */
  live?: FakeYahooBar;
}

/** The market as it stands at `now`: the whole series when `now` is unset. */
function marketAt(
  symbol: string,
  profile: FakeYahooSymbolProfile,
  now: Date | undefined,
): FakeMarket {
  const series = dailySeries(symbol, profile);
  if (now === undefined) return { days: series };
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const days = series.filter((bar) => bar.timestamp <= nowSeconds);
  const latest = days.at(-1);
  if (!latest) return { days };
  const closeTime = latest.timestamp + fakeYahooSessionSeconds(profile);
  if (nowSeconds >= closeTime) return { days, live: { ...latest, timestamp: closeTime } };
  // Under way: the session so far, from its minute bars up to now.
  const minutes = intradayBars(symbol, latest, 1, "1m", profile).filter(
    (bar) => bar.timestamp < nowSeconds,
  );
  const partial = minutes.length > 0 ? { ...latest, ...combine(minutes) } : latest;
  return { days: [...days.slice(0, -1), partial], live: { ...partial, timestamp: nowSeconds } };
}

/**
 * The whole daily series of `symbol` (2010-01-04 to 2030-12-31, weekdays), without null
 * gaps; `undefined` for an unknown symbol. The `meta` block is derived from it.
 */
export function fakeYahooDailySeries(
  symbol: string,
  options: FakeYahooMarketOptions = {},
): readonly FakeYahooBar[] | undefined {
  const profile = resolveFakeYahooSymbol(symbol, options);
  return profile && dailySeries(symbol.toUpperCase(), profile);
}

const seriesCache = new Map<string, FakeYahooBar[]>();

function dailySeries(symbol: string, profile: FakeYahooSymbolProfile): FakeYahooBar[] {
  const key = `${symbol}|${JSON.stringify(profile)}`;
  const cached = seriesCache.get(key);
  if (cached) return cached;
  const random = mulberry32(hashString(symbol));
  const gaussian = () => gaussianFrom(random);
  const { drift, volatility: vol } = profile;
  const bars: FakeYahooBar[] = [];
  let previousClose = profile.startPrice;
  for (let midnight = fakeYahooSeriesStart; midnight <= seriesEnd; midnight += day) {
    const weekday = new Date(midnight * 1000).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const open = price(previousClose * (1 + gaussian() * vol * 0.25));
    const close = price(open * Math.exp(drift + vol * gaussian()));
    const high = price(Math.max(open, close) * (1 + Math.abs(gaussian()) * vol * 0.5));
    const low = price(Math.min(open, close) * (1 - Math.abs(gaussian()) * vol * 0.5));
    const date = new Date(midnight * 1000).toISOString().slice(0, 10);
    bars.push({
      timestamp: fakeZonedTime(profile.exchangeTimezoneName, date, profile.marketOpenSeconds),
      date,
      open,
      high,
      low: Math.min(low, open, close),
      close,
      volume: Math.round(profile.baseVolume * (0.5 + random())),
    });
    previousClose = close;
  }
  seriesCache.set(key, bars);
  return bars;
}

/** Splits a day into bars by a Brownian bridge from the day's open to its close. */
function intradayBars(
  symbol: string,
  daily: FakeYahooBar,
  minutes: number,
  interval: FakeYahooInterval,
  profile: FakeYahooSymbolProfile,
): FakeYahooBar[] {
  const open = daily.open ?? 0;
  const close = daily.close ?? 0;
  const high = daily.high ?? 0;
  const low = daily.low ?? 0;
  const count = Math.ceil(fakeYahooSessionSeconds(profile) / (minutes * 60));
  const random = mulberry32(hashString(`${symbol}|${daily.date}|${interval}`));
  const walk = [0];
  for (let step = 1; step <= count; step++) walk.push((walk[step - 1] ?? 0) + gaussianFrom(random));
  const end = walk[count] ?? 0;
  const spread = (high - low) / 4;
  const clamp = (value: number) => Math.min(high, Math.max(low, price(value)));
  const points = walk.map((w, step) =>
    clamp(open + ((close - open) * step) / count + (w - (end * step) / count) * spread * 0.5),
  );
  return Array.from({ length: count }, (_, index) => {
    const barOpen = points[index] ?? open;
    const barClose = points[index + 1] ?? close;
    const wiggle = Math.abs(gaussianFrom(random)) * spread * 0.2;
    return {
      timestamp: daily.timestamp + index * minutes * 60,
      date: daily.date,
      open: barOpen,
      high: clamp(Math.max(barOpen, barClose) + wiggle),
      low: clamp(Math.min(barOpen, barClose) - wiggle),
      close: barClose,
      volume: Math.round(((daily.volume ?? 0) / count) * (0.5 + random())),
    };
  });
}

function aggregate(
  days: FakeYahooBar[],
  interval: FakeYahooInterval,
  profile: FakeYahooSymbolProfile,
): FakeYahooBar[] {
  const groups = new Map<string, FakeYahooBar[]>();
  days.forEach((bar, index) => {
    const key = groupStart(bar, index, interval);
    groups.set(key, [...(groups.get(key) ?? []), bar]);
  });
  const calendar = interval === "1wk" || interval === "1mo" || interval === "3mo";
  return [...groups].map(([start, group]) => {
    const first = group[0] as FakeYahooBar;
    return {
      timestamp: calendar ? fakeZonedTime(profile.exchangeTimezoneName, start, 0) : first.timestamp,
      date: calendar ? start : first.date,
      ...combine(group),
    };
  });
}

/** The prices and volume of consecutive bars taken as one. */
function combine(
  group: FakeYahooBar[],
): Pick<FakeYahooBar, "open" | "high" | "low" | "close" | "volume"> {
  return {
    open: group[0]?.open ?? null,
    high: Math.max(...group.map((bar) => bar.high ?? -Infinity)),
    low: Math.min(...group.map((bar) => bar.low ?? Infinity)),
    close: group.at(-1)?.close ?? null,
    volume: group.reduce((sum, bar) => sum + (bar.volume ?? 0), 0),
  };
}

/** The first calendar day of the bar `bar` belongs to (its Monday, month or quarter). */
function groupStart(bar: FakeYahooBar, index: number, interval: FakeYahooInterval): string {
  const date = new Date(`${bar.date}T00:00:00Z`);
  switch (interval) {
    case "1wk":
      return new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * day * 1000)
        .toISOString()
        .slice(0, 10);
    case "1mo":
      return `${bar.date.slice(0, 7)}-01`;
    case "3mo":
      return `${bar.date.slice(0, 4)}-${String(Math.floor(date.getUTCMonth() / 3) * 3 + 1).padStart(2, "0")}-01`;
    default:
      return String(Math.floor(index / 5));
  }
}

function withNullQuotes(bar: FakeYahooBar): FakeYahooBar {
  return { ...bar, open: null, high: null, low: null, close: null, volume: null };
}

function price(value: number): number {
  return Math.max(0.01, Math.round(value * 100) / 100);
}

function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function gaussianFrom(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
