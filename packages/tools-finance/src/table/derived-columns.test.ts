import { describe, expect, it } from "vitest";
import { withCumulativeReturns, withDailyReturns, withMovingAverage } from "./derived-columns.js";
import type { PriceRow, PriceTable } from "./price-table.js";

function tableOf(closes: number[]): PriceTable {
  const rows: PriceRow[] = closes.map((close, index) => ({
    Date: `2024-01-${String(index + 1).padStart(2, "0")}`,
    Open: close,
    High: close,
    Low: close,
    Close: close,
    Volume: 100,
  }));
  return { symbol: "TEST", interval: "1d", currency: "USD", rows };
}

describe("withMovingAverage", () => {
  it("averages Close over the window and leaves the first window - 1 rows null", () => {
    const table = withMovingAverage(tableOf([10, 11, 12, 13, 14]), 3);
    expect(table.rows.map((row) => row.MA3)).toEqual([null, null, 11, 12, 13]);
  });

  it("defaults to MA20: null for 19 rows, then the mean of the last 20 closes", () => {
    const closes = Array.from({ length: 22 }, (_, index) => index + 1);
    const rows = withMovingAverage(tableOf(closes)).rows;
    expect(rows.slice(0, 19).every((row) => row.MA20 === null)).toBe(true);
    // (1 + ... + 20) / 20, (2 + ... + 21) / 20, (3 + ... + 22) / 20
    expect(rows.slice(19).map((row) => row.MA20)).toEqual([10.5, 11.5, 12.5]);
  });

  it("keeps the other columns and the table's identity fields", () => {
    const table = withMovingAverage(tableOf([1, 2]), 2);
    expect(table).toMatchObject({ symbol: "TEST", interval: "1d", currency: "USD" });
    expect(table.rows[1]).toEqual({ ...tableOf([1, 2]).rows[1], MA2: 1.5 });
  });

  it("refuses a window that is not a positive integer", () => {
    expect(() => withMovingAverage(tableOf([1]), 0)).toThrow(RangeError);
  });
});

describe("withDailyReturns and withCumulativeReturns", () => {
  it("match hand-computed pct_change and (1 + r).cumprod() - 1", () => {
    const table = withCumulativeReturns(withDailyReturns(tableOf([100, 110, 99, 108.9])));
    const daily = table.rows.map((row) => row.Daily_Return);
    const cumulative = table.rows.map((row) => row.Cumulative_Return);
    // 110/100 - 1 = 0.1; 99/110 - 1 = -0.1; 108.9/99 - 1 = 0.1
    expect(daily[0]).toBeNull();
    expect(daily[1]).toBeCloseTo(0.1, 12);
    expect(daily[2]).toBeCloseTo(-0.1, 12);
    expect(daily[3]).toBeCloseTo(0.1, 12);
    // 1.1 - 1 = 0.1; 1.1 * 0.9 - 1 = -0.01; 1.1 * 0.9 * 1.1 - 1 = 0.089
    expect(cumulative[0]).toBeNull();
    expect(cumulative[1]).toBeCloseTo(0.1, 12);
    expect(cumulative[2]).toBeCloseTo(-0.01, 12);
    expect(cumulative[3]).toBeCloseTo(0.089, 12);
  });

  it("leaves a return null after a zero close and skips it in the product, as pandas does", () => {
    const table = withCumulativeReturns(withDailyReturns(tableOf([2, 0, 5, 10])));
    expect(table.rows.map((row) => row.Daily_Return)).toEqual([null, -1, null, 1]);
    // (1 - 1) * (1 + 1) - 1 = -1
    expect(table.rows.map((row) => row.Cumulative_Return)).toEqual([null, -1, null, -1]);
  });

  it("does not change the input table", () => {
    const input = tableOf([1, 2, 3]);
    const copy = structuredClone(input);
    withCumulativeReturns(withDailyReturns(withMovingAverage(input, 2)));
    expect(input).toEqual(copy);
  });
});
