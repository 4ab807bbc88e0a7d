import { primaryFunction } from "@framework/core";
import { z } from "zod";

const twoDigits = (value: number) => String(value).padStart(2, "0");

/**
 * The current local date and time as `YYYY-MM-DD HH:MM:SS` (24-hour clock, zero-padded, in
 * the time zone of the process, which `TZ` can set). Takes no arguments.
 */
export const get_current_time = primaryFunction(
  {
    description:
      "Get the current local date and time.\n" +
      "Returns it as YYYY-MM-DD HH:MM:SS on a 24-hour clock, in the machine's time zone.",
    parameters: z.object({}),
    returns: "str in format YYYY-MM-DD HH:MM:SS (local current time)",
  },
  function get_current_time(): string {
    const now = new Date();
    const date = `${now.getFullYear()}-${twoDigits(now.getMonth() + 1)}-${twoDigits(now.getDate())}`;
    const time = `${twoDigits(now.getHours())}:${twoDigits(now.getMinutes())}:${twoDigits(now.getSeconds())}`;
    return `${date} ${time}`;
  },
);
