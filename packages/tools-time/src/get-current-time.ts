import { ConfigurationError, primaryFunction } from "@framework/core";
import { z } from "zod";

/** Options of {@link createCurrentTimeTool}. */
export interface CurrentTimeToolOptions {
  /**
   * The IANA time zone the time is given in, e.g. `"Asia/Ho_Chi_Minh"`. Defaults to the
   * process's local time zone (which `TZ` sets), read at each call.
   */
  timeZone?: string;
}

const twoDigits = (value: number) => String(value).padStart(2, "0");

function processLocalTime(now: Date): string {
  const date = `${now.getFullYear()}-${twoDigits(now.getMonth() + 1)}-${twoDigits(now.getDate())}`;
  const time = `${twoDigits(now.getHours())}:${twoDigits(now.getMinutes())}:${twoDigits(now.getSeconds())}`;
  return `${date} ${time}`;
}

/**
 * A clock in `timeZone`.
 *
 * @throws ConfigurationError when the runtime does not know the zone.
 */
function zonedClock(timeZone: string): (now: Date) => string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  } catch {
    throw new ConfigurationError({
      setting: "timeZone",
      message: `get_current_time: "${timeZone}" is not a time zone this runtime knows; use an IANA name such as "Europe/Paris"`,
    });
  }
  return (now) => {
    const part = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
    return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
  };
}

/**
 * Creates a `get_current_time` tool that tells the time in its own time zone, so a program
 * serving users in several zones does not have to change the process's `TZ`. Name, arguments
 * and format are those of {@link get_current_time}, which is this in the process's zone.
 *
 * @throws ConfigurationError when `timeZone` is not a zone the runtime knows.
 *
 * @example
 * const hanoiTime = createCurrentTimeTool({ timeZone: "Asia/Ho_Chi_Minh" });
 * console.log(await hanoiTime()); // "2025-03-07 16:05:03"
 */
export function createCurrentTimeTool(options: CurrentTimeToolOptions = {}) {
  const { timeZone } = options;
  const clock = timeZone === undefined ? processLocalTime : zonedClock(timeZone);
  // The model reads which zone the answer is in.
  const zone = timeZone === undefined ? "the machine's time zone" : `the ${timeZone} time zone`;
  return primaryFunction(
    {
      name: "get_current_time",
      description:
        "Get the current local date and time.\n" +
        `Returns it as YYYY-MM-DD HH:MM:SS on a 24-hour clock, in ${zone}.`,
      parameters: z.object({}),
      returns: "str in format YYYY-MM-DD HH:MM:SS (local current time)",
    },
    (): string => clock(new Date()),
  );
}

/**
 * The current local date and time as `YYYY-MM-DD HH:MM:SS` (24-hour clock, zero-padded, in
 * the time zone of the process, which `TZ` can set). Takes no arguments.
 */
export const get_current_time = createCurrentTimeTool();
