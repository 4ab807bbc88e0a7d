import {
  LoadGuard,
  type LoadGuardOptions,
  type LoadProbe,
  type LoadSummary,
  machineProbe,
} from "./load-guard.js";
import { collectGarbage, type PeakMemory, withPeakMemory } from "./memory.js";
import {
  type Bound,
  bootstrapInterval,
  type Interval,
  intervalVerdict,
  median,
  type Repetitions,
  type Summary,
  summarize,
} from "./stats.js";

/** Which way is better for a measured quantity. */
export type Better = "lower" | "higher";

/** Settings of one paired comparison. */
export interface PairedOptions extends Repetitions {
  /** `lower` for times and bytes, `higher` for rates. */
  readonly better: Better;
  /** Collect garbage before every sample: for cases that allocate heavily. */
  readonly gcBeforeSample?: boolean;
  readonly guard: LoadGuardOptions;
  /** Where the guard reads the load; the real machine unless a test says otherwise. */
  readonly probe?: LoadProbe;
}

/** What a paired comparison found. */
export interface PairedResult {
  readonly ours: Summary;
  readonly peer: Summary;
  /** Per-pair "how many times better ours is": peer ÷ ours when lower is better. */
  readonly ratios: Summary;
  /** Median of the per-pair ratios. */
  readonly ratio: number;
  /** Bootstrap 95 % interval of that median. */
  readonly interval: Interval;
  readonly load: LoadSummary;
  readonly memory: { readonly ours: PeakMemory; readonly peer: PeakMemory };
}

function maxPeak(a: PeakMemory, b: PeakMemory): PeakMemory {
  return { heapMb: Math.max(a.heapMb, b.heapMb), rssMb: Math.max(a.rssMb, b.rssMb) };
}

/**
 * Measures ours against a peer in pairs taken back to back (ABAB…, the order inside a pair
 * swapped every other pair so neither side always runs right after a collection), and
 * reduces them to the median of per-pair ratios with a bootstrap interval. Load that hits
 * one pair hits both of its halves, so it cancels in the ratio instead of deciding the
 * verdict. Warm-up pairs are discarded; a pair taken while the machine got busy is taken
 * again (see {@link LoadGuard}).
 */
export async function measurePaired(
  ours: () => Promise<number>,
  peer: () => Promise<number>,
  options: PairedOptions,
): Promise<PairedResult> {
  const guard = new LoadGuard(options.probe ?? machineProbe(), options.guard);
  const values = { ours: [] as number[], peer: [] as number[], ratios: [] as number[] };
  let memory = {
    ours: { heapMb: 0, rssMb: 0 },
    peer: { heapMb: 0, rssMb: 0 },
  };
  const sample = async (side: "ours" | "peer") => {
    if (options.gcBeforeSample) collectGarbage();
    const { value, peak } = await withPeakMemory(side === "ours" ? ours : peer);
    memory = { ...memory, [side]: maxPeak(memory[side], peak) };
    return value;
  };
  for (let pair = 0; pair < options.warmup + options.samples; pair++) {
    let attempt = 0;
    let taken: { ours: number; peer: number };
    do {
      await guard.beforeSample();
      if (pair % 2 === 0) {
        const first = await sample("ours");
        taken = { ours: first, peer: await sample("peer") };
      } else {
        const first = await sample("peer");
        taken = { peer: first, ours: await sample("ours") };
      }
    } while (pair >= options.warmup && guard.afterSample(attempt++));
    if (pair < options.warmup) continue;
    values.ours.push(taken.ours);
    values.peer.push(taken.peer);
    values.ratios.push(
      options.better === "lower" ? taken.peer / taken.ours : taken.ours / taken.peer,
    );
  }
  return {
    ours: summarize(values.ours),
    peer: summarize(values.peer),
    ratios: summarize(values.ratios),
    ratio: median(values.ratios),
    interval: bootstrapInterval([values.ratios], (groups) => median(groups[0]!)),
    load: guard.summary(),
    memory,
  };
}

/** The verdict of a paired result against a bound on its ratio. */
export function pairedVerdict(result: PairedResult, bound: Bound): "met" | "missed" {
  return intervalVerdict(result.interval, bound);
}
