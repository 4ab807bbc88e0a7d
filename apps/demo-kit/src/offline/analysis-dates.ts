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

const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** A span a question names: its first day and the day after its last. */
interface Period {
  start: string;
  end: string;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

// Days first, then "March 2019", then bare years that are not part of either.
function periodsIn(text: string): Period[] {
  const periods: Period[] = [];
  const taken: Array<[number, number]> = [];
  // An invalid day such as 2024-13-45 is taken too, so its year is not read on its own.
  const add = (match: RegExpMatchArray, period: Period | undefined) => {
    const from = match.index ?? 0;
    const to = from + match[0].length;
    if (taken.some(([start, end]) => from < end && to > start)) return;
    taken.push([from, to]);
    if (period) periods.push(period);
  };
  for (const match of text.matchAll(/\b(?:19|20)\d{2}-\d{2}-\d{2}\b/g)) {
    const day = match[0];
    const time = Date.parse(`${day}T00:00:00Z`);
    const valid = !Number.isNaN(time) && new Date(time).toISOString().startsWith(day);
    add(match, valid ? { start: day, end: shift(day, 1) } : undefined);
  }
  const monthNames = new RegExp(
    `\\b(${months.join("|")}|${months.map((m) => m.slice(0, 3)).join("|")})\\.?\\s+((?:19|20)\\d{2})\\b`,
    "gi",
  );
  for (const match of text.matchAll(monthNames)) {
    const month = months.findIndex((full) => full.startsWith((match[1] ?? "").toLowerCase())) + 1;
    const year = Number(match[2]);
    const end = month === 12 ? `${year + 1}-01-01` : `${year}-${pad(month + 1)}-01`;
    add(match, { start: `${year}-${pad(month)}-01`, end });
  }
  for (const match of text.matchAll(/\b(?:19|20)\d{2}\b/g)) {
    const year = Number(match[0]);
    add(match, { start: `${year}-01-01`, end: `${year + 1}-01-01` });
  }
  return periods;
}

/**
 * The range a question asks about: from the earliest day, month or year it names
 * ("2024-03-01", "March 2019", "2024") to the end of the latest, so "from March 2019 to June
 * 2019" is 2019-03-01 to 2019-07-01 and "in 2024" the whole year. A month without its year is
 * not read. `undefined` when it names none.
 */
export function rangeInText(text: string): DateRange | undefined {
  const periods = periodsIn(text);
  if (periods.length === 0) return undefined;
  const starts = periods.map((period) => period.start).sort();
  const ends = periods.map((period) => period.end).sort();
  return { start_date: starts[0] ?? "", end_date: ends.at(-1) ?? "" };
}
