import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chartFileStem, chartsDirectory } from "./chart-files.js";

describe("chart file names", () => {
  const previous = process.env.FRAMEWORK_CHARTS_DIR;
  afterEach(() => {
    if (previous === undefined) delete process.env.FRAMEWORK_CHARTS_DIR;
    else process.env.FRAMEWORK_CHARTS_DIR = previous;
  });

  it("names files <SYMBOL>_<kind>_<start>_<end>_<interval>, unsafe characters replaced", () => {
    const name = { kind: "candlestick", start_date: "2020-01-01", end_date: "2025-01-01" } as const;
    expect(chartFileStem({ ...name, symbol: "AAPL", interval: "1d" })).toBe(
      "AAPL_candlestick_2020-01-01_2025-01-01_1d",
    );
    expect(chartFileStem({ ...name, symbol: "^GSPC", interval: "1wk" })).toBe(
      "_GSPC_candlestick_2020-01-01_2025-01-01_1wk",
    );
    expect(chartFileStem({ ...name, symbol: "../EURUSD=X", interval: "1d" })).toBe(
      ".._EURUSD_X_candlestick_2020-01-01_2025-01-01_1d",
    );
  });

  it("reads FRAMEWORK_CHARTS_DIR at call time and defaults to ./charts", () => {
    delete process.env.FRAMEWORK_CHARTS_DIR;
    expect(chartsDirectory()).toBe(resolve("charts"));
    process.env.FRAMEWORK_CHARTS_DIR = "out/figures";
    expect(chartsDirectory()).toBe(join(process.cwd(), "out/figures"));
  });
});
