import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { END_NAME, START_NAME } from "../node/endpoints.js";
import type { AnyGraphNode } from "../node/graph-node.js";
import { GraphTopology } from "../topology/graph-topology.js";
import { Frontier } from "./frontier.js";

function topology(edges: [string, string][]): GraphTopology {
  const names = new Set(edges.flat().filter((n) => n !== START_NAME && n !== END_NAME));
  const nodes = new Map([...names].map((name) => [name, { name } as unknown as AnyGraphNode]));
  return new GraphTopology({
    nodes,
    edges: edges.map(([from, to]) => ({ from, to })),
    branches: [],
  });
}

describe("Frontier readiness", () => {
  it("holds a join while a running node can still reach it", () => {
    const frontier = new Frontier(
      topology([
        [START_NAME, "a"],
        [START_NAME, "b"],
        ["a", "c"],
        ["b", "c"],
        ["c", END_NAME],
      ]),
    );
    frontier.trigger("a");
    frontier.trigger("b");
    expect(frontier.nextReady()).toBe("a");
    frontier.start("a");
    expect(frontier.nextReady()).toBe("b");
    frontier.start("b");
    frontier.finish("a", ["c"]);
    expect(frontier.nextReady()).toBeUndefined();
    frontier.finish("b", ["c"]);
    expect(frontier.nextReady()).toBe("c");
    expect(frontier.start("c")).toBe(1);
  });

  it("lets two waiting nodes on one cycle start together instead of waiting for each other", () => {
    const frontier = new Frontier(
      topology([
        [START_NAME, "a"],
        [START_NAME, "b"],
        ["a", "b"],
        ["b", "a"],
        ["b", END_NAME],
      ]),
    );
    frontier.trigger("a");
    frontier.trigger("b");
    expect(frontier.nextReady()).toBe("a");
    frontier.start("a");
    expect(frontier.nextReady()).toBeUndefined();
    frontier.finish("a", []);
    expect(frontier.nextReady()).toBe("b");
  });

  it("never runs a node twice at once, and counts its visits", () => {
    const frontier = new Frontier(
      topology([
        [START_NAME, "loop"],
        ["loop", "loop"],
        ["loop", END_NAME],
      ]),
    );
    frontier.trigger("loop");
    expect(frontier.start("loop")).toBe(1);
    frontier.trigger("loop");
    expect(frontier.nextReady()).toBeUndefined();
    frontier.finish("loop", []);
    expect(frontier.nextReady()).toBe("loop");
    expect(frontier.start("loop")).toBe(2);
    expect(frontier.snapshot()).toEqual({ pending: [], running: ["loop"], visits: { loop: 2 } });
  });

  it("restores a saved frontier with running nodes waiting to re-run their unfinished visit", () => {
    const frontier = new Frontier(
      topology([
        [START_NAME, "a"],
        ["a", "b"],
        ["b", END_NAME],
      ]),
      { saved: { pending: ["b"], running: ["a"], visits: { a: 1 } } },
    );
    expect(frontier.waiting).toEqual(["a", "b"]);
    expect(frontier.nextReady()).toBe("a");
    expect(frontier.start("a")).toBe(1);
    frontier.finish("a", ["a"]);
    expect(frontier.start("a")).toBe(2);
  });

  it("leaves out of a snapshot the visits of nodes upstream of every active one", () => {
    const frontier = new Frontier(
      topology([
        [START_NAME, "a"],
        ["a", "b"],
        ["b", "loop"],
        ["loop", "loop"],
        ["loop", "c"],
        ["c", END_NAME],
      ]),
    );
    for (const [name, next] of [
      ["a", "b"],
      ["b", "loop"],
      ["loop", "loop"],
    ] as const) {
      if (name === "a") frontier.trigger("a");
      frontier.start(name);
      frontier.finish(name, [next]);
    }
    // a and b can never run again: only the loop, which may, keeps its count.
    expect(frontier.snapshot().visits).toEqual({ loop: 1 });
    expect(frontier.start("loop")).toBe(2);
    frontier.finish("loop", ["c"]);
    frontier.start("c");
    // c runs its first visit: implied, not counted until it ends.
    expect(frontier.snapshot()).toEqual({ pending: [], running: ["c"], visits: {} });
    const resumed = new Frontier(
      topology([
        [START_NAME, "a"],
        ["a", "c"],
        ["c", END_NAME],
      ]),
      { saved: frontier.snapshot() },
    );
    expect(resumed.nextReady()).toBe("c");
    expect(resumed.start("c")).toBe(1);
  });

  it("counts visits of nodes named like Object.prototype members as their own", () => {
    const frontier = new Frontier(
      topology([
        [START_NAME, "__proto__"],
        ["__proto__", "constructor"],
        ["constructor", "__proto__"],
        ["constructor", END_NAME],
      ]),
    );
    for (const [name, next] of [
      ["__proto__", "constructor"],
      ["constructor", "__proto__"],
    ] as const) {
      frontier.trigger(name);
      expect(frontier.start(name)).toBe(1);
      frontier.finish(name, [next]);
    }
    expect(frontier.start("__proto__")).toBe(2);
    const { visits } = frontier.snapshot();
    expect(Object.getPrototypeOf(visits)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(visits))).toEqual(
      JSON.parse('{"__proto__":2,"constructor":1}'),
    );
  });
});

describe("Frontier deltas", () => {
  it("records what moved since the last checkpoint, in the order a reader replays it", () => {
    const frontier = new Frontier(
      topology([
        [START_NAME, "a"],
        ["a", "a"],
        ["a", "b"],
        ["b", END_NAME],
      ]),
      { recordDelta: true },
    );
    frontier.trigger("a");
    expect(frontier.takeDelta()).toEqual({ triggered: ["a"] });
    frontier.start("a");
    frontier.finish("a", ["a"]);
    frontier.trigger("a");
    // A first visit is implied: only later ones carry their number.
    expect(frontier.takeDelta()).toEqual({ started: ["a"], finished: ["a"], triggered: ["a"] });
    expect(frontier.takeDelta()).toEqual({});
    expect(frontier.snapshot()).toEqual({ pending: ["a"], running: [], visits: { a: 1 } });
    expect(frontier.start("a")).toBe(2);
    expect(frontier.takeDelta()).toEqual({ started: ["a"], visits: { a: 2 } });
  });

  it("records nothing when no checkpoint will ask", () => {
    const frontier = new Frontier(
      topology([
        [START_NAME, "a"],
        ["a", END_NAME],
      ]),
    );
    frontier.trigger("a");
    frontier.start("a");
    expect(frontier.takeDelta()).toEqual({});
  });

  it("lets a join wait for 10,000 branches and start once the last ends", () => {
    const width = 10_000;
    const edges: [string, string][] = [["join", END_NAME]];
    for (let index = 0; index < width; index++) {
      edges.push([START_NAME, `f${index}`], [`f${index}`, "join"]);
    }
    const frontier = new Frontier(topology(edges));
    for (let index = 0; index < width; index++) frontier.trigger(`f${index}`);
    for (let name = frontier.nextReady(); name; name = frontier.nextReady()) frontier.start(name);
    for (let index = 0; index < width; index++) {
      frontier.finish(`f${index}`, ["join"]);
      expect(frontier.nextReady()).toBe(index === width - 1 ? "join" : undefined);
      // Ended branches can never run again and running ones are on their first visit: a
      // snapshot names none of them a second time.
      if (index === width / 2) expect(frontier.snapshot().visits).toEqual({});
    }
  }, 300_000);
});

describe("Frontier readiness against the rule, on random graphs", () => {
  /** The rule by brute force: a waiting node is ready when nothing active can still reach it. */
  function firstReadyByRule(
    edges: [string, string][],
    waiting: readonly string[],
    running: ReadonlySet<string>,
  ): string | undefined {
    const reach = (from: string, to: string): boolean => {
      const seen = new Set([from]);
      const queue = [from];
      while (queue.length > 0) {
        const current = queue.shift()!;
        for (const [a, b] of edges) {
          if (a !== current) continue;
          if (b === to) return true;
          if (seen.has(b)) continue;
          seen.add(b);
          queue.push(b);
        }
      }
      return false;
    };
    return waiting.find(
      (name) =>
        !running.has(name) &&
        ![...running].some((other) => reach(other, name)) &&
        !waiting.some((other) => other !== name && reach(other, name) && !reach(name, other)),
    );
  }

  it("starts the same node the rule picks after any sequence of triggers, starts and ends", () => {
    const nodeNames = ["a", "b", "c", "d", "e", "f"];
    const edge = fc.tuple(fc.constantFrom(...nodeNames), fc.constantFrom(...nodeNames));
    const step = fc.tuple(fc.constantFrom("trigger", "start", "finish"), fc.nat());
    fc.assert(
      fc.property(
        fc.array(edge, { maxLength: 12 }),
        fc.array(step, { maxLength: 40 }),
        (extra, steps) => {
          const edges: [string, string][] = [
            ...nodeNames.map((name): [string, string] => [START_NAME, name]),
            ...nodeNames.map((name): [string, string] => [name, END_NAME]),
            ...extra,
          ];
          const frontier = new Frontier(topology(edges));
          const running = new Set<string>();
          for (const [kind, pick] of steps) {
            const expected = firstReadyByRule(edges, frontier.waiting, running);
            expect(frontier.nextReady()).toBe(expected);
            if (kind === "trigger") frontier.trigger(nodeNames[pick % nodeNames.length]!);
            if (kind === "start" && expected) {
              frontier.start(expected);
              running.add(expected);
            }
            if (kind === "finish" && running.size > 0) {
              const name = [...running][pick % running.size]!;
              frontier.finish(name, []);
              running.delete(name);
            }
          }
        },
      ),
    );
  });
});
