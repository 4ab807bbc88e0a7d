import { seededRandom } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { bootstrapInterval, growthExponent, median, medianEstimate, summarize } from "./stats.js";

describe("median", () => {
  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("refuses an empty list rather than inventing a value", () => {
    expect(() => median([])).toThrow(RangeError);
  });
});

describe("summarize", () => {
  it("keeps the samples in the order taken", () => {
    expect(summarize([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, samples: [3, 1, 2] });
  });
});

describe("bootstrapInterval", () => {
  const byMedian = (groups: readonly (readonly number[])[]) => median(groups[0]!);

  it("is degenerate for constant samples", () => {
    expect(bootstrapInterval([[2, 2, 2, 2]], byMedian)).toEqual({ low: 2, high: 2 });
  });

  it("brackets the median and widens with the spread", () => {
    const tight = [9.9, 10, 10.1, 10, 9.95, 10.05, 10, 10.02, 9.98];
    const loose = [5, 15, 8, 12, 10, 6, 14, 9, 11];
    const narrow = bootstrapInterval([tight], byMedian);
    const wide = bootstrapInterval([loose], byMedian);
    expect(narrow.low).toBeLessThanOrEqual(10);
    expect(narrow.high).toBeGreaterThanOrEqual(10);
    expect(wide.high - wide.low).toBeGreaterThan(narrow.high - narrow.low);
    expect(wide.low).toBeGreaterThanOrEqual(5);
    expect(wide.high).toBeLessThanOrEqual(15);
  });

  it("covers the true median of a known distribution about 95% of the time", () => {
    const random = seededRandom(42);
    let covered = 0;
    const trials = 200;
    for (let trial = 0; trial < trials; trial++) {
      // Uniform on [0, 2): true median 1.
      const samples = Array.from({ length: 25 }, () => random() * 2);
      const { low, high } = bootstrapInterval([samples], byMedian, {
        resamples: 400,
        seed: trial,
      });
      if (low <= 1 && high >= 1) covered += 1;
    }
    expect(covered / trials).toBeGreaterThan(0.88);
    expect(covered / trials).toBeLessThan(0.995);
  });

  it("resamples each group on its own", () => {
    const interval = bootstrapInterval(
      [
        [1, 1, 1],
        [4, 4],
      ],
      (groups) => median(groups[1]!) / median(groups[0]!),
    );
    expect(interval).toEqual({ low: 4, high: 4 });
  });

  it("refuses an empty group", () => {
    expect(() => bootstrapInterval([[]], byMedian)).toThrow(RangeError);
  });
});

describe("growthExponent", () => {
  it("reads 1 for linear, 0 for constant and 2 for quadratic growth", () => {
    expect(growthExponent([10, 1000], [5, 500])).toBeCloseTo(1, 10);
    expect(growthExponent([10, 1000], [5, 5])).toBeCloseTo(0, 10);
    expect(growthExponent([100, 10_000], [1, 10_000])).toBeCloseTo(2, 10);
  });

  it("refuses sizes out of order and non-positive costs", () => {
    expect(() => growthExponent([1000, 10], [1, 2])).toThrow(RangeError);
    expect(() => growthExponent([0, 10], [1, 2])).toThrow(RangeError);
    expect(() => growthExponent([10, 100], [0, 2])).toThrow(RangeError);
  });
});

describe("medianEstimate", () => {
  it("is the median with the interval the bootstrap gives it", () => {
    const values = [12, 10, 11, 30, 9, 10.5, 11.5];
    const estimate = medianEstimate(values, "ms");
    expect(estimate).toEqual({
      value: 11,
      unit: "ms",
      interval: bootstrapInterval([values], (groups) => median(groups[0]!)),
    });
    expect(estimate.interval.low).toBeLessThan(11);
    expect(estimate.interval.high).toBeGreaterThan(11);
  });

  it("is a point for a single value", () => {
    expect(medianEstimate([4], "B").interval).toEqual({ low: 4, high: 4 });
  });
});
