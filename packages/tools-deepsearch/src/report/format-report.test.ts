import { describe, expect, it } from "vitest";
import { formatReport } from "./format-report.js";

describe("formatReport", () => {
  it("writes the spec's format character for character", () => {
    const report = formatReport(
      ["1. Overview", "btc price", "2. Outlook", "btc forecast"],
      ["1. Overview \n Bitcoin rose.\n\nIt kept rising.", "2. Outlook \n Calm ahead."],
    );
    expect(report).toBe(
      "# I. Planning\n1. Overview\nbtc price\n2. Outlook\nbtc forecast\n\n# II. Results\n## 1. Overview \n Bitcoin rose.\n\nIt kept rising.\n\n## 2. Outlook \n Calm ahead.",
    );
  });

  it("writes one chapter without a separator", () => {
    expect(formatReport(["1. Only"], ["1. Only \n Text."])).toBe(
      "# I. Planning\n1. Only\n\n# II. Results\n## 1. Only \n Text.",
    );
  });
});
