import { describe, expect, it } from "vitest";
import { percent } from "./percent.js";

describe("percent", () => {
  it("signs gains and losses and keeps two decimals", () => {
    expect(percent(12.345)).toBe("+12.35%");
    expect(percent(0)).toBe("+0.00%");
    expect(percent(-3.1)).toBe("-3.10%");
  });
});
