import { describe, expect, it } from "vitest";
import { nextTick, scheduleProblem, timezoneProblem } from "./cron-schedule.js";

const at = (iso: string) => new Date(iso);

describe("cron schedules", () => {
  it("answers the first tick strictly after a time, with seconds when there are 6 fields", () => {
    expect(nextTick({ schedule: "*/15 * * * *" }, at("2026-03-02T10:15:00Z"))).toEqual(
      at("2026-03-02T10:30:00Z"),
    );
    expect(nextTick({ schedule: "* * * * * *" }, at("2026-03-02T10:15:00.400Z"))).toEqual(
      at("2026-03-02T10:15:01Z"),
    );
  });

  it("reads a schedule in its time zone, across a daylight saving change", () => {
    const nine = { schedule: "0 9 * * *", timezone: "America/New_York" };
    expect(nextTick(nine, at("2026-03-06T00:00:00Z"))).toEqual(at("2026-03-06T14:00:00Z"));
    // New York moves to daylight time on 8 March 2026: 09:00 is then 13:00 UTC.
    expect(nextTick(nine, at("2026-03-09T00:00:00Z"))).toEqual(at("2026-03-09T13:00:00Z"));
  });

  it("has no tick left at or after its end", () => {
    const timing = { schedule: "0 * * * *", endTime: "2026-03-02T11:30:00.000Z" };
    expect(nextTick(timing, at("2026-03-02T10:10:00Z"))).toEqual(at("2026-03-02T11:00:00Z"));
    expect(nextTick(timing, at("2026-03-02T11:10:00Z"))).toBeNull();
    expect(nextTick(timing, at("2026-03-02T12:00:00Z"))).toBeNull();
  });

  it("says why a schedule or a time zone cannot be read", () => {
    expect(scheduleProblem("0 9 * * 1-5")).toBeUndefined();
    expect(scheduleProblem("*/5 0 9 * * 1-5")).toBeUndefined();
    expect(scheduleProblem("@daily")).toMatch(/5 fields/);
    expect(scheduleProblem("* * * * * * *")).toMatch(/got 7/);
    expect(scheduleProblem("61 * * * *")).toMatch(/Not a cron schedule/);
    expect(scheduleProblem("0 0 30 2 *")).toMatch(/Not a cron schedule/);
    expect(timezoneProblem("Europe/Paris")).toBeUndefined();
    expect(timezoneProblem("Mars/Olympus")).toBe("Not an IANA time zone: Mars/Olympus");
  });
});
