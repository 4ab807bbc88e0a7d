import { z } from "zod";
import { isStockInterval, type StockInterval, stockIntervals } from "../table/price-table.js";

/**
 * The four arguments every stock tool takes, with the spec's names and defaults. Dates and
 * interval are plain strings here on purpose: a bad value must reach the tool, which reports
 * it the spec's way (a logged message and `null`) instead of failing the call.
 */
export const stockArguments = z.object({
  symbol: z
    .string()
    .min(1)
    .describe("Ticker symbol as Yahoo Finance lists it, e.g. AAPL, ^GSPC, BTC-USD, 7203.T"),
  start_date: z
    .string()
    .default("2020-01-01")
    .describe("First date included, YYYY-MM-DD (exchange-local)"),
  end_date: z
    .string()
    .default("2025-01-01")
    .describe("Date the range stops before, YYYY-MM-DD; must be later than start_date"),
  interval: z
    .string()
    .default("1d")
    .describe(`Bar size, one of ${stockIntervals.join(", ")}`),
});

/** The stock tools' arguments after defaults are applied. */
export type StockArguments = z.output<typeof stockArguments>;

/** Validated stock arguments, with the range as unix seconds. */
export interface StockRequest {
  /** Trimmed and upper-cased. */
  symbol: string;
  startDate: string;
  endDate: string;
  interval: StockInterval;
  /** UTC midnight of `startDate`, unix seconds. */
  start: number;
  /** UTC midnight of `endDate`, unix seconds. */
  end: number;
}

/** Either a request to send, or why the arguments cannot make one. */
export type StockRequestResult =
  | { ok: true; request: StockRequest }
  | { ok: false; symbol: string; reason: string };

const symbolPattern = /^[A-Z0-9^][A-Z0-9^.=&-]{0,31}$/;

/**
 * Checks the stock tools' arguments: a plausible ticker, real calendar dates in `YYYY-MM-DD`,
 * `end_date` after `start_date` and an interval Yahoo serves.
 */
export function parseStockArguments(args: StockArguments): StockRequestResult {
  const symbol = args.symbol.trim().toUpperCase();
  const fail = (reason: string): StockRequestResult => ({ ok: false, symbol, reason });
  if (!symbolPattern.test(symbol)) {
    return fail(
      `invalid symbol "${args.symbol}": expected a ticker such as AAPL, ^GSPC or BTC-USD`,
    );
  }
  const start = parseDate(args.start_date);
  if (start === undefined) return fail(invalidDate("start_date", args.start_date));
  const end = parseDate(args.end_date);
  if (end === undefined) return fail(invalidDate("end_date", args.end_date));
  if (end <= start) {
    return fail(`end_date (${args.end_date}) must be later than start_date (${args.start_date})`);
  }
  if (!isStockInterval(args.interval)) {
    return fail(
      `invalid interval "${args.interval}": expected one of ${stockIntervals.join(", ")}`,
    );
  }
  return {
    ok: true,
    request: {
      symbol,
      startDate: args.start_date,
      endDate: args.end_date,
      interval: args.interval,
      start,
      end,
    },
  };
}

function invalidDate(name: string, value: string): string {
  return `invalid ${name} "${value}": expected a calendar date in YYYY-MM-DD format`;
}

/** Unix seconds of the date's UTC midnight, or `undefined` unless it is a real `YYYY-MM-DD`. */
function parseDate(value: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const time = Date.UTC(year, month - 1, day);
  // Date.UTC rolls 2023-02-30 over to March; a round trip exposes such impossible dates.
  return new Date(time).toISOString().slice(0, 10) === value ? time / 1000 : undefined;
}
