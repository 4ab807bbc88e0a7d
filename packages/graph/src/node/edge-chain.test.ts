import { describe, expect, it } from "vitest";
import { END, START } from "./endpoints.js";
import { node } from "./function-node.js";

describe("edge chains", () => {
  it("chains START.to(a).to(b) into a readonly list of edges", () => {
    const a = node("a", () => ({}));
    const b = node("b", () => ({}));
    const chain = START.to(a).to(b).to(END);
    expect(chain.length).toBe(3);
    expect([...chain].map((edge) => [edge.from, edge.to])).toEqual([
      [START, a],
      [a, b],
      [b, END],
    ]);
    expect(Object.isFrozen(chain.edges)).toBe(true);
    expect(Object.isFrozen(chain.edges[0])).toBe(true);
  });

  it("never changes a chain when extending it", () => {
    const a = node("a", () => ({}));
    const base = START.to(a);
    const left = base.to("left");
    const right = base.to("right");
    expect(base.length).toBe(1);
    expect(left.edges.at(-1)).toEqual({ from: a, to: "left" });
    expect(right.edges.at(-1)).toEqual({ from: a, to: "right" });
  });

  it("starts a chain from a node value", () => {
    const a = node("a", () => ({}));
    expect(a.to(END).edges).toEqual([{ from: a, to: END }]);
  });
});
