import { describe, expect, it } from "vitest";
import { dateOfCurrentTime, rangeEndingOn, rangeInText } from "./analysis-dates.js";

describe("analysis dates", () => {
  it("reads get_current_time's date and builds ranges that include today", () => {
    expect(dateOfCurrentTime("2025-03-07 09:05:03")).toBe("2025-03-07");
    expect(dateOfCurrentTime("Error")).toBeUndefined();
    expect(rangeEndingOn("2025-03-01", 182)).toEqual({
      start_date: "2024-08-31",
      end_date: "2025-03-02",
    });
  });

  it("reads the range a question names: years, months with their year, and days", () => {
    const range = (start_date: string, end_date: string) => ({ start_date, end_date });
    expect(rangeInText("How did NVDA do in 2024?")).toEqual(range("2024-01-01", "2025-01-01"));
    expect(rangeInText("AAPL from 2019 to 2021")).toEqual(range("2019-01-01", "2022-01-01"));
    expect(rangeInText("TSLA from March 2019 to June 2019")).toEqual(
      range("2019-03-01", "2019-07-01"),
    );
    expect(rangeInText("MSFT in Dec. 2023")).toEqual(range("2023-12-01", "2024-01-01"));
    expect(rangeInText("FPT between 2024-02-05 and 2024-03-15")).toEqual(
      range("2024-02-05", "2024-03-16"),
    );
    expect(rangeInText("AAPL since 2024-13-45")).toBeUndefined();
    expect(rangeInText("How is NVDA doing?")).toBeUndefined();
  });
});
