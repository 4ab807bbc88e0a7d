import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { condense } from "./condensation.js";

/** Reachability by brute force, to check the condensation against. */
function reaches(successors: number[][], from: number, to: number): boolean {
  const seen = new Set<number>();
  const stack = [...successors[from]!];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next === to) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...successors[next]!);
  }
  return false;
}

describe("condense", () => {
  it("puts a cycle in one component and numbers components in topological order", () => {
    // 0 -> 1 -> 2 -> 1, 2 -> 3
    const { componentOf, count, predecessors } = condense([[1], [2], [1, 3], []]);
    expect(count).toBe(3);
    expect(componentOf[1]).toBe(componentOf[2]);
    expect(componentOf[0]).toBeLessThan(componentOf[1]!);
    expect(componentOf[1]).toBeLessThan(componentOf[3]!);
    expect(predecessors[componentOf[3]!]).toEqual([componentOf[1]]);
  });

  it("handles a 100,000-vertex chain without overflowing the stack", () => {
    const n = 100_000;
    const successors = Array.from({ length: n }, (_, index) => (index + 1 < n ? [index + 1] : []));
    const { count, componentOf } = condense(successors);
    expect(count).toBe(n);
    expect(componentOf[n - 1]).toBe(n - 1);
  }, 300_000);

  it("agrees with brute-force reachability on random graphs", () => {
    const graph = fc.integer({ min: 1, max: 12 }).chain((n) =>
      fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 4 }), {
        minLength: n,
        maxLength: n,
      }),
    );
    fc.assert(
      fc.property(graph, (successors) => {
        const { componentOf, predecessors } = condense(successors);
        for (let a = 0; a < successors.length; a++) {
          for (let b = 0; b < successors.length; b++) {
            const same = a === b || (reaches(successors, a, b) && reaches(successors, b, a));
            expect(componentOf[a] === componentOf[b]).toBe(same);
            if (!same && reaches(successors, a, b)) {
              expect(componentOf[a]).toBeLessThan(componentOf[b]!);
            }
          }
        }
        predecessors.forEach((list, component) => {
          expect(new Set(list).size).toBe(list.length);
          for (const from of list) expect(from).toBeLessThan(component);
        });
      }),
    );
  });
});
