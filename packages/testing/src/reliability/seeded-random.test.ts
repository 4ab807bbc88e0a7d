import { describe, expect, it } from "vitest";
import { seededRandom } from "./seeded-random.js";

describe("seededRandom", () => {
  it("repeats its sequence for a seed and stays in [0, 1)", () => {
    const first = seededRandom(42);
    const again = seededRandom(42);
    const other = seededRandom(43);
    const values = Array.from({ length: 1000 }, () => first());
    expect(Array.from({ length: 1000 }, () => again())).toEqual(values);
    expect(Array.from({ length: 1000 }, () => other())).not.toEqual(values);
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
  });
});
