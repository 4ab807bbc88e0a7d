/**
 * Exchange-local time for the fake Yahoo server: Yahoo stamps daily bars at the session's
 * open and longer bars at local midnight, each in the exchange's zone with the daylight-saving
 * rule of that date, not at a fixed offset.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let cached = formatters.get(zone);
  if (!cached) {
    cached = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, cached);
  }
  return cached;
}

function wallClock(zone: string, unixSeconds: number): Record<string, number> {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(unixSeconds * 1000)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return parts;
}

/** The offset of `zone` from UTC at `unixSeconds`, in seconds (New York in July: -14 400). */
export function fakeZoneOffsetSeconds(zone: string, unixSeconds: number): number {
  const { year, month, day, hour, minute, second } = wallClock(zone, unixSeconds);
  const asUtc = Date.UTC(
    year ?? 0,
    (month ?? 1) - 1,
    day ?? 1,
    hour ?? 0,
    minute ?? 0,
    second ?? 0,
  );
  return asUtc / 1000 - Math.floor(unixSeconds);
}

/** The calendar date in `zone` at `unixSeconds`, `YYYY-MM-DD`. */
export function fakeZoneDate(zone: string, unixSeconds: number): string {
  const { year, month, day } = wallClock(zone, unixSeconds);
  const pad = (value: number | undefined) => String(value ?? 0).padStart(2, "0");
  return `${String(year).padStart(4, "0")}-${pad(month)}-${pad(day)}`;
}

/** Unix seconds of `secondsAfterMidnight` on `date` (`YYYY-MM-DD`) in `zone`. */
export function fakeZonedTime(zone: string, date: string, secondsAfterMidnight: number): number {
  const wall = Date.parse(`${date}T00:00:00Z`) / 1000 + secondsAfterMidnight;
  // The offset at the wall time read as UTC is right except within hours of a change; a
  // second pass with the offset at the first guess settles it.
  const guess = wall - fakeZoneOffsetSeconds(zone, wall);
  return wall - fakeZoneOffsetSeconds(zone, guess);
}
