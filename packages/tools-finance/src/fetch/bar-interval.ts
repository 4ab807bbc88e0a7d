import type { StockInterval } from "../table/price-table.js";

const dayMs = 86_400_000;

/** The length of an intraday interval in milliseconds; `undefined` for a day or longer. */
export function intradayIntervalMs(interval: StockInterval): number | undefined {
  // Intraday intervals are named by minutes (`15m`) or hours (`1h`); longer ones by d, wk, mo.
  const match = /^(\d+)([mh])$/.exec(interval);
  if (!match) return undefined;
  return Number(match[1]) * (match[2] === "h" ? 3_600_000 : 60_000);
}

function utcDay(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * The first exchange-local date of the calendar bar holding `date`: its Monday for `1wk`, the
 * 1st of its month for `1mo`, of its quarter for `3mo`; `date` itself for other intervals.
 * Yahoo stamps such bars at that day's midnight, and its live row at the quote time.
 */
export function barStartDate(date: string, interval: StockInterval): string {
  const day = utcDay(date);
  switch (interval) {
    case "1wk":
      return isoDate(day.getTime() - ((day.getUTCDay() + 6) % 7) * dayMs);
    case "1mo":
      return `${date.slice(0, 7)}-01`;
    case "3mo": {
      const month = Math.floor(day.getUTCMonth() / 3) * 3 + 1;
      return `${date.slice(0, 4)}-${String(month).padStart(2, "0")}-01`;
    }
    default:
      return date;
  }
}

/**
 * The exchange-local date after the last day of the bar starting `start` (for `1d`, the next
 * day); `undefined` for `5d`, whose bars Yahoo cuts by trading days, not by the calendar.
 */
export function barEndDate(start: string, interval: StockInterval): string | undefined {
  const day = utcDay(start);
  switch (interval) {
    case "1d":
      return isoDate(day.getTime() + dayMs);
    case "1wk":
      return isoDate(day.getTime() + 7 * dayMs);
    case "1mo":
      return isoDate(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1));
    case "3mo":
      return isoDate(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 3, 1));
    default:
      return undefined;
  }
}
