import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RangeCounter } from "./range-counter.js";

describe("RangeCounter", () => {
  it("sums prefixes and finds the first non-zero position like a plain array", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 60 }),
        (size, operations) => {
          const counter = new RangeCounter(size);
          const plain = new Array<number>(size).fill(0);
          for (const [raw, add] of operations) {
            const position = raw % size;
            const delta = add || plain[position] === 0 ? 1 : -1;
            counter.add(position, delta);
            plain[position]! += delta;
            const firstNonZero = plain.findIndex((count) => count > 0);
            expect(counter.firstNonZero()).toBe(firstNonZero === -1 ? size : firstNonZero);
            for (let end = 0; end <= size; end++) {
              expect(counter.sumBefore(end)).toBe(plain.slice(0, end).reduce((a, b) => a + b, 0));
            }
          }
        },
      ),
    );
  });
});
