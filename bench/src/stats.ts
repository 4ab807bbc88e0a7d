import { performance } from "node:perf_hooks";

/** Repeated measurements of one quantity, reduced to what the report shows. */
export interface Summary {
  /** The middle value: robust against the outliers a shared machine produces. */
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Every measurement, in the order taken. */
  readonly samples: readonly number[];
}

/** The median of `values` (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median, extremes and the raw samples of `values`. */
export function summarize(values: readonly number[]): Summary {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    samples: [...values],
  };
}

/** Milliseconds `fn` takes, from call to settlement. */
export async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** How many times to measure. */
export interface Repetitions {
  /** Unrecorded rounds first, so JIT compilation and lazy setup are not measured. */
  readonly warmup: number;
  /** Recorded rounds. */
  readonly samples: number;
}

/**
 * Measures several contestants side by side: each round runs every contestant once, in an
 * order rotated from round to round, so a burst of load on the shared machine hits all of
 * them alike instead of whichever happened to run then. A contestant returns its own
 * measurement (a duration, or a rate), so it can time exactly the part that matters.
 */
export async function sampleInterleaved<K extends string>(
  contestants: Readonly<Record<K, () => Promise<number>>>,
  { warmup, samples }: Repetitions,
): Promise<Record<K, Summary>> {
  const names = Object.keys(contestants) as K[];
  const recorded = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < warmup + samples; round++) {
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(round + offset) % names.length]!;
      const value = await contestants[name]();
      if (round >= warmup) recorded.get(name)!.push(value);
    }
  }
  return Object.fromEntries(names.map((name) => [name, summarize(recorded.get(name)!)])) as Record<
    K,
    Summary
  >;
}
