import { describe, expect, it } from "vitest";
import { dateOfCurrentTime, rangeEndingOn, yearRange } from "./analysis-dates.js";

describe("analysis dates", () => {
  it("reads get_current_time's date and builds ranges that include today", () => {
    expect(dateOfCurrentTime("2025-03-07 09:05:03")).toBe("2025-03-07");
    expect(dateOfCurrentTime("Error")).toBeUndefined();
    expect(rangeEndingOn("2025-03-01", 182)).toEqual({
      start_date: "2024-08-31",
      end_date: "2025-03-02",
    });
    expect(yearRange("How did NVDA do in 2024?")).toEqual({
      start_date: "2024-01-01",
      end_date: "2025-01-01",
    });
    expect(yearRange("How is NVDA doing?")).toBeUndefined();
  });
});
