import { describe, expect, it } from "vitest";
import { LoadGuard, type LoadProbe } from "./load-guard.js";
import { measurePaired } from "./paired.js";

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
