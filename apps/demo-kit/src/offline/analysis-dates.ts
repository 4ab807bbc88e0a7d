/** A date range in the stock tools' terms: `start_date` included, `end_date` excluded. */
export interface DateRange {
  start_date: string;
  end_date: string;
}

const dayMs = 86_400_000;

function shift(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/**
 * The date of a `get_current_time` result (`YYYY-MM-DD HH:MM:SS`), or `undefined` when the text
 * is something else.
 */
export function dateOfCurrentTime(text: string): string | undefined {
  return /^(\d{4}-\d{2}-\d{2}) \d{2}:\d{2}:\d{2}/.exec(text.trim())?.[1];
}

/** The `days` days up to and including `today`. */
export function rangeEndingOn(today: string, days: number): DateRange {
  return { start_date: shift(today, -days), end_date: shift(today, 1) };
}

/** A whole calendar year, when the text names one such as "in 2024"; else `undefined`. */
export function yearRange(text: string): DateRange | undefined {
  const year = /\b(19\d{2}|20\d{2})\b/.exec(text)?.[1];
  return year ? { start_date: `${year}-01-01`, end_date: `${Number(year) + 1}-01-01` } : undefined;
}
