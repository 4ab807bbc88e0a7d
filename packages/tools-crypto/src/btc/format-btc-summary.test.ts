import { describe, expect, it } from "vitest";
import { formatBtcSummary } from "./format-btc-summary.js";

describe("formatBtcSummary", () => {
  it("writes the eight lines with two decimals, signs kept, no thousands separators", () => {
    const text = formatBtcSummary({
      VALUE: 61002.5,
      CURRENT_DAY_CHANGE: -1523.456,
      CURRENT_DAY_CHANGE_PERCENTAGE: -2.4367,
      CURRENT_WEEK_CHANGE: 0,
      CURRENT_WEEK_CHANGE_PERCENTAGE: 0,
      CURRENT_MONTH_CHANGE: 10250.125,
      CURRENT_MONTH_CHANGE_PERCENTAGE: 20.19,
      CURRENT_YEAR_CHANGE_PERCENTAGE: 112.5,
      MOVING_24_HOUR_LOW: 60120,
      MOVING_24_HOUR_HIGH: 62999.999,
      CURRENT_DAY_HIGH: 62500.1,
      CURRENT_DAY_LOW: 60880.05,
    });
    expect(text).toBe(
      [
        "--- BTC-USD Market Data ---",
        "Current Price: $61002.50 USD",
        "Day Change: -1523.46 (-2.44%)",
        "Week Change: 0.00 (0.00%)",
        "Month Change: 10250.12 (20.19%)",
        "24h Range: $60120.00 - $63000.00",
        "Year Change: 112.50%",
        "Volatility Context: Day High $62500.10 / Low $60880.05",
      ].join("\n"),
    );
  });
});
