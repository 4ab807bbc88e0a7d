import {
  LoadGuard,
  type LoadGuardOptions,
  type LoadProbe,
  type LoadSummary,
  machineProbe,
} from "./load-guard.js";
import { collectGarbage, maxPeak, type PeakMemory, withPeakMemory } from "./memory.js";
import {
  bootstrapInterval,
  type Estimate,
  type Interval,
  median,
  type Repetitions,
  type Summary,
  summarize,
} from "./stats.js";

/** Which way is better for a measured quantity. */
export type Better = "lower" | "higher";

/**
 * What one run of a contestant reports: the value compared (a duration, a rate, bytes), or
 * that value with what else the run saw (`observed`, summarized beside it) and, for a run in a
 * child process, the child's own peak memory.
 */
export type Observation =
  | number
  | {
      readonly value: number;
      readonly observed?: Readonly<Record<string, number>>;
      readonly memory?: PeakMemory;
    };

/** Settings of {@link measureInterleaved}. */
export interface InterleavedOptions extends Repetitions {
  /** Collect garbage before every sample: for cases that allocate heavily. */
  readonly gcBeforeSample?: boolean;
  readonly guard: LoadGuardOptions;
  /** Where the guard reads the load; the real machine unless a test says otherwise. */
  readonly probe?: LoadProbe;
  /**
   * `sampled` (default): peak heap and RSS of this process while the contestant ran.
   * `reported`: the largest the runs reported themselves ({@link Observation}`.memory`), for
   * contestants that run in child processes, where this process's memory says nothing.
   */
  readonly memory?: "sampled" | "reported";
}

/** What one contestant of {@link measureInterleaved} measured, over the recorded rounds. */
export interface ContestantResult {
  readonly values: Summary;
  /** Each key its runs observed, over the same rounds in the same order as `values`. */
  readonly observed: Readonly<Record<string, Summary>>;
  /** Absent only when memory is `reported` and no run reported it (each was killed). */
  readonly memory?: PeakMemory;
}

/** What {@link measureInterleaved} found: each contestant's rounds, and the machine's load. */
export interface InterleavedResult<K extends string> {
  readonly contestants: Readonly<Record<K, ContestantResult>>;
  readonly load: LoadSummary;
}

function measuredValue(observation: Observation): number {
  return typeof observation === "number" ? observation : observation.value;
}

/**
 * Measures contestants side by side: each round runs every contestant once, back to back, in
 * an order rotated from round to round (ABAB… for two, the order inside a pair swapped every
 * other pair), so a burst of load on the shared machine hits all of one round alike and no
 * contestant always runs right after a collection. Warm-up rounds are discarded; a round
 * taken while the machine got busy is taken again (see {@link LoadGuard}). Index `i` of every
 * contestant's values is the same round, so per-round ratios pair them.
 */
export async function measureInterleaved<K extends string>(
  contestants: Readonly<Record<K, () => Promise<Observation>>>,
  options: InterleavedOptions,
): Promise<InterleavedResult<K>> {
  const names = Object.keys(contestants) as K[];
  if (names.length === 0) throw new RangeError("nothing to measure");
  const guard = new LoadGuard(options.probe ?? machineProbe(), options.guard);
  const recorded = new Map<K, Observation[]>(names.map((name) => [name, []]));
  const sampled = new Map<K, PeakMemory[]>(names.map((name) => [name, []]));
  const reported = new Map<K, PeakMemory[]>(names.map((name) => [name, []]));
  const run = async (name: K): Promise<Observation> => {
    if (options.gcBeforeSample) collectGarbage();
    const { value, peak } = await withPeakMemory(contestants[name]);
    sampled.get(name)!.push(peak);
    if (typeof value !== "number" && value.memory) reported.get(name)!.push(value.memory);
    return value;
  };
  for (let round = 0; round < options.warmup + options.samples; round++) {
    let attempt = 0;
    const taken = new Map<K, Observation>();
    do {
      await guard.beforeSample();
      for (let offset = 0; offset < names.length; offset++) {
        const name = names[(round + offset) % names.length]!;
        taken.set(name, await run(name));
      }
    } while (round >= options.warmup && guard.afterSample(attempt++));
    if (round < options.warmup) continue;
    for (const name of names) recorded.get(name)!.push(taken.get(name)!);
  }
  const result = (name: K): ContestantResult => {
    const runs = recorded.get(name)!;
    const observations = runs.map((run) => (typeof run === "number" ? {} : (run.observed ?? {})));
    // Only what every round observed: a run killed before it could report observed nothing.
    const keys = Object.keys(observations[0] ?? {}).filter((key) =>
      observations.every((seen) => key in seen),
    );
    const observed = Object.fromEntries(
      keys.map((key) => [key, summarize(observations.map((seen) => seen[key]!))]),
    );
    const peaks = options.memory === "reported" ? reported.get(name)! : sampled.get(name)!;
    return {
      values: summarize(runs.map(measuredValue)),
      observed,
      ...(peaks.length > 0 ? { memory: maxPeak(...peaks) } : {}),
    };
  };
  return {
    contestants: Object.fromEntries(names.map((name) => [name, result(name)])) as Record<
      K,
      ContestantResult
    >,
    load: guard.summary(),
  };
}

/** Per-round "how many times better `ours` is" than `peer`: peer ÷ ours when lower is better. */
export function roundRatios(ours: Summary, peer: Summary, better: Better): number[] {
  return ours.samples.map((value, round) =>
    better === "lower" ? peer.samples[round]! / value : value / peer.samples[round]!,
  );
}

/** Settings of one paired comparison. */
export interface PairedOptions extends InterleavedOptions {
  /** `lower` for times and bytes, `higher` for rates. */
  readonly better: Better;
}

/** What a paired comparison found. */
export interface PairedResult {
  readonly ours: Summary;
  readonly peer: Summary;
  /** What each side's runs observed beside their value, pair by pair. */
  readonly observed: {
    readonly ours: Readonly<Record<string, Summary>>;
    readonly peer: Readonly<Record<string, Summary>>;
  };
  /** Per-pair "how many times better ours is": peer ÷ ours when lower is better. */
  readonly ratios: Summary;
  /** Median of the per-pair ratios. */
  readonly ratio: number;
  /** Bootstrap 95 % interval of that median. */
  readonly interval: Interval;
  readonly load: LoadSummary;
  readonly memory: { readonly ours?: PeakMemory; readonly peer?: PeakMemory };
}

/**
 * Two contestants of one {@link measureInterleaved} run as a pair: their per-round ratios
 * ("how many times better ours is"), the median and its bootstrap interval. `observed` names
 * what each run observed to compare instead of its value (a stream's first event rather than
 * its last); the rounds pair the same way. Rounds of three contestants give a row against
 * each of the other two from the same runs.
 */
export function pairedResult(
  ours: ContestantResult,
  peer: ContestantResult,
  better: Better,
  load: LoadSummary,
  observed?: string,
): PairedResult {
  const compared = (side: ContestantResult, name: string) => {
    if (observed === undefined) return side.values;
    const summary = side.observed[observed];
    if (!summary) throw new RangeError(`${name}'s runs did not all observe "${observed}"`);
    return summary;
  };
  const oursValues = compared(ours, "ours");
  const peerValues = compared(peer, "the peer");
  const ratios = roundRatios(oursValues, peerValues, better);
  return {
    ours: oursValues,
    peer: peerValues,
    observed: { ours: ours.observed, peer: peer.observed },
    ratios: summarize(ratios),
    ratio: median(ratios),
    interval: bootstrapInterval([ratios], (groups) => median(groups[0]!)),
    load,
    memory: {
      ...(ours.memory ? { ours: ours.memory } : {}),
      ...(peer.memory ? { peer: peer.memory } : {}),
    },
  };
}

/**
 * Measures ours against a peer in pairs taken back to back (see {@link measureInterleaved}),
 * and reduces them to the median of per-pair ratios with a bootstrap interval. Load that hits
 * one pair hits both of its halves, so it cancels in the ratio instead of deciding the verdict.
 */
export async function measurePaired(
  ours: () => Promise<Observation>,
  peer: () => Promise<Observation>,
  options: PairedOptions,
): Promise<PairedResult> {
  const { contestants, load } = await measureInterleaved({ ours, peer }, options);
  return pairedResult(contestants.ours, contestants.peer, options.better, load);
}

/** The paired ratio of `result` as a row's metric: "how many times better ours is". */
export function ratioEstimate(result: PairedResult): Estimate {
  return { value: result.ratio, unit: "×", interval: result.interval };
}

/** `statistic` of each pair's two values, pair by pair (ours first). */
export function perPair(
  result: PairedResult,
  statistic: (ours: number, peer: number) => number,
): number[] {
  return result.ours.samples.map((value, pair) => statistic(value, result.peer.samples[pair]!));
}
