const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** A formatter of calendar dates in `timeZone`, or `null` when the runtime does not know it. */
function dateFormatter(timeZone: string): Intl.DateTimeFormat | null {
  let cached = formatters.get(timeZone);
  if (cached === undefined) {
    try {
      // en-CA writes dates as YYYY-MM-DD.
      cached = new Intl.DateTimeFormat("en-CA", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      });
    } catch {
      cached = null;
    }
    formatters.set(timeZone, cached);
  }
  return cached;
}

/** An exchange's calendar, from the `meta` block of a Yahoo chart answer. */
export interface ExchangeClock {
  /** IANA zone, `meta.exchangeTimezoneName`, e.g. `America/New_York`. */
  timeZone: string;
  /** `meta.gmtoffset`: the offset when Yahoo answered, in seconds; used only for unknown zones. */
  fallbackOffsetSeconds: number;
}

/**
 * The exchange-local calendar date (`YYYY-MM-DD`) of the instant `date`, by the zone's rules
 * for that instant, daylight saving included. Yahoo's `gmtoffset` is the offset when it
 * answered, so shifting by it misdates every bar on the other side of a clock change; it is
 * used only when the runtime has no data for the zone.
 */
export function exchangeDate(date: Date, clock: ExchangeClock): string {
  const formatter = dateFormatter(clock.timeZone);
  if (formatter) return formatter.format(date);
  return new Date(date.getTime() + clock.fallbackOffsetSeconds * 1000).toISOString().slice(0, 10);
}
