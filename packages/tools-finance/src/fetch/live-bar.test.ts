import { describe, expect, it } from "vitest";
import { barEndDate, barStartDate } from "./bar-interval.js";
import { type DatedBar, foldLiveBar, isBarInProgress } from "./live-bar.js";

const bar = (time: string, date: string, values: Partial<DatedBar> = {}): DatedBar => ({
  time: Date.parse(time),
  date,
  open: 10,
  high: 12,
  low: 9,
  close: 11,
  volume: 100,
  ...values,
});

describe("barStartDate and barEndDate", () => {
  it.each([
    ["2024-03-06", "1d", "2024-03-06", "2024-03-07"],
    ["2024-03-06", "1wk", "2024-03-04", "2024-03-11"],
    ["2024-03-10", "1wk", "2024-03-04", "2024-03-11"],
    ["2024-12-31", "1mo", "2024-12-01", "2025-01-01"],
    ["2024-08-15", "3mo", "2024-07-01", "2024-10-01"],
  ] as const)("puts %s in its %s bar", (date, interval, start, end) => {
    expect(barStartDate(date, interval)).toBe(start);
    expect(barEndDate(start, interval)).toBe(end);
  });
});

describe("foldLiveBar", () => {
  it("lets a daily live row replace its day's bar, keeping the day's open", () => {
    const bars = [
      bar("2024-03-05T14:30:00Z", "2024-03-05"),
      bar("2024-03-06T14:30:00Z", "2024-03-06", {
        open: 20,
        high: 21,
        low: 19,
        close: 20,
        volume: 50,
      }),
      bar("2024-03-06T17:00:00Z", "2024-03-06", {
        open: 22,
        high: 23,
        low: 18,
        close: 22.5,
        volume: 60,
      }),
    ];
    expect(foldLiveBar(bars, "1d")).toEqual([
      bars[0],
      { ...bars[1], high: 23, low: 18, close: 22.5, volume: 60 },
    ]);
  });

  it("merges a weekly live row into its week, adding the volumes", () => {
    const week = bar("2024-03-04T05:00:00Z", "2024-03-04", { volume: 300 });
    const live = bar("2024-03-06T17:00:00Z", "2024-03-06", {
      high: 15,
      low: 8,
      close: 14,
      volume: 40,
    });
    expect(foldLiveBar([week, live], "1wk")).toEqual([
      { ...week, high: 15, low: 8, close: 14, volume: 340 },
    ]);
  });

  it("merges an intraday live row into the bar under way", () => {
    const current = bar("2024-03-06T16:30:00Z", "2024-03-06");
    const live = bar("2024-03-06T17:10:00Z", "2024-03-06", { close: 11.5, volume: 0 });
    expect(foldLiveBar([current, live], "1h")).toEqual([{ ...current, close: 11.5 }]);
  });

  it("keeps a live row alone in its interval, and drops one repeating the last stamp", () => {
    const friday = bar("2024-03-01T05:00:00Z", "2024-03-01");
    const monday = bar("2024-03-04T15:00:00Z", "2024-03-04");
    expect(foldLiveBar([friday, monday], "1wk")).toEqual([friday, monday]);
    expect(foldLiveBar([friday, { ...friday, close: 13 }], "1mo")).toEqual([friday]);
    expect(foldLiveBar([friday], "1d")).toEqual([friday]);
  });
});

describe("isBarInProgress", () => {
  const day = bar("2024-03-06T14:30:00Z", "2024-03-06");
  const sessionEnd = Date.parse("2024-03-06T21:00:00Z");

  it("holds a daily bar in progress until its session closes", () => {
    const at = (instant: string, today = "2024-03-06") =>
      isBarInProgress({ bar: day, interval: "1d", now: Date.parse(instant), today, sessionEnd });
    expect(at("2024-03-06T17:00:00Z")).toBe(true);
    expect(at("2024-03-06T21:00:00Z")).toBe(false);
    expect(at("2024-03-07T15:00:00Z", "2024-03-07")).toBe(false);
  });

  it("holds a weekly or monthly bar in progress until the period ends", () => {
    const week = bar("2024-03-04T05:00:00Z", "2024-03-04");
    const input = { bar: week, now: 0, sessionEnd: 0 };
    expect(isBarInProgress({ ...input, interval: "1wk", today: "2024-03-10" })).toBe(true);
    expect(isBarInProgress({ ...input, interval: "1wk", today: "2024-03-11" })).toBe(false);
    expect(isBarInProgress({ ...input, interval: "1mo", today: "2024-03-31" })).toBe(true);
  });

  it("holds an intraday bar in progress for its length", () => {
    const hour = bar("2024-03-06T16:30:00Z", "2024-03-06");
    const input = { bar: hour, interval: "1h" as const, today: "2024-03-06" };
    expect(isBarInProgress({ ...input, now: Date.parse("2024-03-06T17:29:00Z") })).toBe(true);
    expect(isBarInProgress({ ...input, now: Date.parse("2024-03-06T17:30:00Z") })).toBe(false);
  });
});
