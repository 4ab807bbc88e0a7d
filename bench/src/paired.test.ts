import { describe, expect, it } from "vitest";
import { LoadGuard, type LoadProbe } from "./load-guard.js";
import {
  measureInterleaved,
  measurePaired,
  type Observation,
  pairedResult,
  perPair,
  roundRatios,
} from "./paired.js";

/** A probe replaying `slowdowns`, then idle; waits only count. */
function scriptedProbe(slowdowns: number[]): LoadProbe & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    read: () => ({ loadPerCore: 0.5, slowdown: slowdowns.shift() ?? 1 }),
    wait: async (ms) => {
      waits.push(ms);
    },
  };
}

const guardOptions = { maxSlowdown: 1.5, pollMs: 100, maxWaitMs: 250, maxRemeasures: 2 };

describe("LoadGuard", () => {
  it("waits while the machine is busy, within its budget", async () => {
    const probe = scriptedProbe([3, 3, 1]);
    const guard = new LoadGuard(probe, guardOptions);
    await guard.beforeSample();
    expect(probe.waits).toEqual([100, 100]);
    const busy = scriptedProbe([3, 3, 3, 3, 3]);
    const bounded = new LoadGuard(busy, guardOptions);
    await bounded.beforeSample();
    expect(busy.waits).toEqual([100, 100]);
    expect(bounded.summary().waitedMs).toBe(200);
  });

  it("asks for a sample again when the machine got busy, a bounded number of times", () => {
    const guard = new LoadGuard(scriptedProbe([2, 2, 2, 1]), guardOptions);
    expect(guard.afterSample(0)).toBe(true);
    expect(guard.afterSample(1)).toBe(true);
    expect(guard.afterSample(2)).toBe(false);
    expect(guard.afterSample(0)).toBe(false);
    expect(guard.summary()).toMatchObject({ remeasured: 2, slowdownMedian: 2 });
  });
});

describe("measurePaired", () => {
  it("alternates the order inside pairs, drops warm-ups and takes the median ratio", async () => {
    const order: string[] = [];
    const oursTimes = [99, 10, 10, 10, 10, 10];
    const peerTimes = [99, 20, 30, 40, 50, 60];
    const result = await measurePaired(
      async () => {
        order.push("ours");
        return oursTimes.shift()!;
      },
      async () => {
        order.push("peer");
        return peerTimes.shift()!;
      },
      { warmup: 1, samples: 5, better: "lower", guard: guardOptions, probe: scriptedProbe([]) },
    );
    expect(order.slice(0, 4)).toEqual(["ours", "peer", "peer", "ours"]);
    expect(result.ratios.samples).toEqual([2, 3, 4, 5, 6]);
    expect(result.ratio).toBe(4);
    expect(result.interval.low).toBeGreaterThanOrEqual(2);
    expect(result.interval.high).toBeLessThanOrEqual(6);
  });

  it("re-measures a pair the machine disturbed and counts it", async () => {
    let ours = 0;
    // Readings: before pair, after pair (busy → again), before, after (idle).
    const probe = scriptedProbe([1, 4, 1, 1]);
    const result = await measurePaired(
      async () => ++ours,
      async () => 10,
      { warmup: 0, samples: 1, better: "higher", guard: guardOptions, probe },
    );
    expect(ours).toBe(2);
    expect(result.ratios.samples).toEqual([0.2]);
    expect(result.load.remeasured).toBe(1);
  });
});

describe("measureInterleaved", () => {
  it("rotates the order every round and keeps each contestant's rounds aligned", async () => {
    const order: string[] = [];
    let tick = 0;
    const contestant = (name: string) => async () => {
      order.push(name);
      return ++tick;
    };
    const { contestants } = await measureInterleaved(
      { a: contestant("a"), b: contestant("b"), c: contestant("c") },
      { warmup: 1, samples: 2, guard: guardOptions, probe: scriptedProbe([]) },
    );
    expect(order).toEqual(["a", "b", "c", "b", "c", "a", "c", "a", "b"]);
    expect(contestants.a.values.samples).toEqual([6, 8]);
    expect(contestants.b.values.samples).toEqual([4, 9]);
    expect(contestants.c.values.samples).toEqual([5, 7]);
    expect(roundRatios(contestants.a.values, contestants.b.values, "lower")).toEqual([
      4 / 6,
      9 / 8,
    ]);
    expect(roundRatios(contestants.a.values, contestants.b.values, "higher")).toEqual([
      6 / 4,
      8 / 9,
    ]);
  });

  it("summarizes what every round observed, and drops what some round did not", async () => {
    const runs: Observation[] = [
      { value: 1, observed: { calls: 3, bytes: 10 } },
      { value: 2, observed: { calls: 5 } },
    ];
    const { contestants } = await measureInterleaved(
      { ours: async () => runs.shift()! },
      { warmup: 0, samples: 2, guard: guardOptions, probe: scriptedProbe([]) },
    );
    expect(contestants.ours.values.samples).toEqual([1, 2]);
    expect(Object.keys(contestants.ours.observed)).toEqual(["calls"]);
    expect(contestants.ours.observed.calls!.samples).toEqual([3, 5]);
  });

  it("samples this process's memory, or takes what child runs reported", async () => {
    const child = [
      { value: 1, memory: { heapMb: 3, rssMb: 40 } },
      { value: 2, memory: { heapMb: 5, rssMb: 30 } },
      7,
    ];
    const options = { warmup: 0, samples: 3, guard: guardOptions, probe: scriptedProbe([]) };
    const reported = await measureInterleaved(
      { child: async () => child.shift()! },
      { ...options, memory: "reported" },
    );
    expect(reported.contestants.child.memory).toEqual({ heapMb: 5, rssMb: 40 });
    const killed = await measureInterleaved(
      { child: async () => 90_000 },
      { ...options, memory: "reported" },
    );
    expect(killed.contestants.child.memory).toBeUndefined();
    const sampled = await measureInterleaved({ here: async () => 1 }, options);
    expect(sampled.contestants.here.memory!.heapMb).toBeGreaterThan(0);
    expect(sampled.contestants.here.memory!.rssMb).toBeGreaterThan(0);
  });
});

describe("pairedResult", () => {
  it("pairs ours with any other contestant of the same rounds, on values or on what they observed", async () => {
    const runs = {
      ours: [
        { value: 10, observed: { first: 1 } },
        { value: 20, observed: { first: 2 } },
      ],
      peer: [
        { value: 40, observed: { first: 8 } },
        { value: 60, observed: { first: 4 } },
      ],
      floor: [5, 10],
    };
    const { contestants, load } = await measureInterleaved(
      {
        ours: async () => runs.ours.shift()!,
        peer: async () => runs.peer.shift()!,
        floor: async () => runs.floor.shift()!,
      },
      { warmup: 0, samples: 2, guard: guardOptions, probe: scriptedProbe([]) },
    );
    const onValues = pairedResult(contestants.ours, contestants.peer, "lower", load);
    expect(onValues.ratios.samples).toEqual([4, 3]);
    expect(onValues.ratio).toBe(3.5);
    const onFirst = pairedResult(contestants.ours, contestants.peer, "lower", load, "first");
    expect(onFirst.ours.samples).toEqual([1, 2]);
    expect(onFirst.ratios.samples).toEqual([8, 2]);
    const againstFloor = pairedResult(contestants.ours, contestants.floor, "higher", load);
    expect(againstFloor.ratios.samples).toEqual([2, 2]);
    expect(() => pairedResult(contestants.ours, contestants.floor, "lower", load, "first")).toThrow(
      /did not all observe "first"/,
    );
  });
});

describe("perPair", () => {
  it("applies a statistic to each pair's two values, ours first", async () => {
    const ours = [10, 20, 30];
    const peers = [5, 10, 10];
    const result = await measurePaired(
      async () => ours.shift()!,
      async () => peers.shift()!,
      { warmup: 0, samples: 3, better: "lower", guard: guardOptions, probe: scriptedProbe([]) },
    );
    expect(perPair(result, (mine, theirs) => mine / theirs)).toEqual([2, 2, 3]);
  });
});
