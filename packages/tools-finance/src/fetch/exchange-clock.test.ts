import { describe, expect, it } from "vitest";
import { exchangeDate } from "./exchange-clock.js";

const newYork = { timeZone: "America/New_York", fallbackOffsetSeconds: -18_000 };

describe("exchangeDate", () => {
  it("uses the zone's offset of each instant, not the offset Yahoo answered with", () => {
    // Midnight in New York on 1 April 2024 (EDT, UTC-4): the winter offset would say 31 March.
    expect(exchangeDate(new Date("2024-04-01T04:00:00Z"), newYork)).toBe("2024-04-01");
    expect(exchangeDate(new Date("2024-03-01T05:00:00Z"), newYork)).toBe("2024-03-01");
  });

  it.each([
    ["Europe/London", "2024-03-31T23:00:00Z", "2024-04-01"],
    ["Europe/London", "2024-01-01T00:00:00Z", "2024-01-01"],
    ["Asia/Tokyo", "2024-02-29T15:00:00Z", "2024-03-01"],
    ["Asia/Ho_Chi_Minh", "2024-02-29T17:00:00Z", "2024-03-01"],
  ])("dates in %s: %s is %s", (timeZone, instant, date) => {
    expect(exchangeDate(new Date(instant), { timeZone, fallbackOffsetSeconds: 0 })).toBe(date);
  });

  it("falls back to Yahoo's offset for a zone the runtime does not know", () => {
    const clock = { timeZone: "Exchange/Unknown", fallbackOffsetSeconds: 25_200 };
    expect(exchangeDate(new Date("2024-02-29T17:00:00Z"), clock)).toBe("2024-03-01");
  });
});
