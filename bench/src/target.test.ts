import { describe, expect, it } from "vitest";
import type { Estimate } from "./stats.js";
import { type Comparator, target, verdictOf } from "./target.js";

const estimate = (low: number, high: number): Estimate => ({
  value: (low + high) / 2,
  unit: "×",
  interval: { low, high },
});

describe("verdictOf", () => {
  it("meets a lower bound only when the whole interval is at or above it", () => {
    const atLeast = target("ratio ≥ 1", "ratio", ">=", 1);
    expect(verdictOf(atLeast, { ratio: estimate(1.01, 3) })).toBe("met");
    expect(verdictOf(atLeast, { ratio: estimate(1, 3) })).toBe("met");
    expect(verdictOf(atLeast, { ratio: estimate(0.99, 3) })).toBe("missed");
  });

  it("meets an upper bound only when the whole interval is at or below it", () => {
    const atMost = target("exponent ≤ 1.2", "exponent", "<=", 1.2);
    expect(verdictOf(atMost, { exponent: estimate(0.8, 1.19) })).toBe("met");
    expect(verdictOf(atMost, { exponent: estimate(0.8, 1.2) })).toBe("met");
    expect(verdictOf(atMost, { exponent: estimate(0.8, 1.21) })).toBe("missed");
  });

  it("reads strict comparators strictly", () => {
    const cases: [Comparator, Estimate, "met" | "missed"][] = [
      [">", estimate(2, 3), "missed"],
      [">", estimate(2.01, 3), "met"],
      ["<", estimate(1, 2), "missed"],
      ["<", estimate(1, 1.99), "met"],
    ];
    for (const [comparator, ratio, expected] of cases) {
      expect(verdictOf(target("t", "ratio", comparator, 2), { ratio }), comparator).toBe(expected);
    }
  });

  it("needs every criterion, and only looks at the metrics they name", () => {
    const both = {
      text: "< 200 ms and < 100 MB",
      criteria: [
        { metric: "ms", comparator: "<", threshold: 200 },
        { metric: "mb", comparator: "<", threshold: 100 },
      ],
    } as const;
    const unrelated = estimate(1e9, 1e9);
    expect(verdictOf(both, { ms: estimate(10, 20), mb: estimate(5, 6), unrelated })).toBe("met");
    expect(verdictOf(both, { ms: estimate(10, 20), mb: estimate(50, 101) })).toBe("missed");
    expect(verdictOf(both, { ms: estimate(10, 201), mb: estimate(5, 6) })).toBe("missed");
  });

  it("refuses a target about a metric the row lacks, or with no criteria", () => {
    expect(() => verdictOf(target("t", "ratio", ">=", 1), {})).toThrow(/ratio/);
    expect(() => verdictOf({ text: "t", criteria: [] }, {})).toThrow(RangeError);
  });
});
