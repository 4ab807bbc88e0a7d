import { CronExpressionParser } from "cron-parser";

/** When a cron fires: its expression, read in a time zone, until an end. */
export interface CronTiming {
  /** A cron expression: 5 fields, or 6 with seconds first. */
  readonly schedule: string;
  /** An IANA time zone; `null` or absent for UTC. */
  readonly timezone?: string | null;
  /** No tick after this instant (ISO time). */
  readonly endTime?: string | null;
}

/**
 * Why `schedule` cannot be read, or `undefined` when it can. Expressions are read as BullMQ
 * reads its job schedulers' (the same `cron-parser` major), so a schedule means the same
 * thing whichever mode fires it. An expression no date satisfies (`0 0 30 2 *`) is refused.
 */
export function scheduleProblem(schedule: string): string | undefined {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    return `A cron schedule has 5 fields (minute hour day month weekday), or 6 with seconds first; got ${fields.length}`;
  }
  try {
    CronExpressionParser.parse(schedule, { tz: "UTC", strict: false }).next();
    return undefined;
  } catch (error) {
    return `Not a cron schedule: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Why `timezone` is no IANA time zone, or `undefined` when it is one. */
export function timezoneProblem(timezone: string): string | undefined {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return undefined;
  } catch {
    return `Not an IANA time zone: ${timezone}`;
  }
}

/**
 * The first tick of `timing` strictly after `after`, or `null` when none is left before its
 * end. Expects a schedule and time zone that passed {@link scheduleProblem} and
 * {@link timezoneProblem}.
 */
export function nextTick(timing: CronTiming, after: Date): Date | null {
  const end = timing.endTime == null ? undefined : new Date(timing.endTime);
  if (end !== undefined && end.getTime() <= after.getTime()) return null;
  const expression = CronExpressionParser.parse(timing.schedule, {
    currentDate: after,
    tz: timing.timezone ?? "UTC",
    ...(end === undefined ? {} : { endDate: end }),
  });
  if (!expression.hasNext()) return null;
  return expression.next().toDate();
}
