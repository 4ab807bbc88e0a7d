import { describe, expect, it } from "vitest";
import { median, sampleInterleaved, summarize } from "./stats.js";

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

describe("sampleInterleaved", () => {
  it("rotates the order every round and leaves the warm-up rounds out", async () => {
    const order: string[] = [];
    let tick = 0;
    const contestant = (name: string) => async () => {
      order.push(name);
      return ++tick;
    };
    const results = await sampleInterleaved(
      { a: contestant("a"), b: contestant("b") },
      { warmup: 1, samples: 2 },
    );
    expect(order).toEqual(["a", "b", "b", "a", "a", "b"]);
    expect(results.a.samples).toEqual([4, 5]);
    expect(results.b.samples).toEqual([3, 6]);
  });
});
