import { createCapturingLogger } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { fetch_stock_data } from "./fetch-stock-data.js";

const live = process.env.FRAMEWORK_LIVE === "1";

describe.skipIf(!live)("fetch_stock_data against the real Yahoo Finance (FRAMEWORK_LIVE=1)", () => {
  it("fetches a month of AAPL daily prices", async () => {
    const logger = createCapturingLogger();
    const table = await fetch_stock_data(
      { symbol: "AAPL", start_date: "2024-01-01", end_date: "2024-02-01" },
      { logger },
    );
    expect(logger.entries.filter((entry) => entry.level !== "debug")).toEqual([]);
    expect(table?.currency).toBe("USD");
    // January 2024 had 21 NYSE trading days.
    expect(table?.rows).toHaveLength(21);
    expect(table?.rows[0]?.Date).toBe("2024-01-02");
    for (const row of table?.rows ?? []) {
      expect(row.High).toBeGreaterThanOrEqual(row.Low);
      expect(row.Volume).toBeGreaterThan(0);
    }
  });

  it("reports an unknown symbol and returns null", async () => {
    const logger = createCapturingLogger();
    const table = await fetch_stock_data({ symbol: "NOSUCHTICKERXYZ" }, { logger });
    expect(table).toBeNull();
    expect(logger.lines.join("\n")).toMatch(/Error fetching data for NOSUCHTICKERXYZ: /);
  });
});
