import { performance } from "node:perf_hooks";
import { seededRandom } from "@framework/testing";

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

/** A two-sided confidence interval. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** Settings of {@link bootstrapInterval}. */
export interface BootstrapOptions {
  /** Resamples drawn; 2,000 keeps the 2.5th and 97.5th percentiles steady. */
  readonly resamples?: number;
  /** Coverage of the interval; 0.95 by default. */
  readonly confidence?: number;
  readonly seed?: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  const position = (sorted.length - 1) * fraction;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/**
 * Percentile bootstrap interval of `statistic` over independent `groups` of samples: each
 * resample redraws every group with replacement at its own size. One group of per-pair ratios
 * with `median` gives the interval of the median ratio; two groups of timings at two sizes
 * with {@link growthExponent} give the interval of the exponent. A group of one sample gives
 * a degenerate interval, which is honest: one run says nothing about its spread.
 */
export function bootstrapInterval(
  groups: readonly (readonly number[])[],
  statistic: (groups: readonly (readonly number[])[]) => number,
  { resamples = 2000, confidence = 0.95, seed = 1 }: BootstrapOptions = {},
): Interval {
  for (const group of groups) {
    if (group.length === 0) throw new RangeError("bootstrap of an empty group");
  }
  const random = seededRandom(seed);
  const estimates: number[] = [];
  for (let round = 0; round < resamples; round++) {
    const drawn = groups.map((group) =>
      Array.from({ length: group.length }, () => group[Math.floor(random() * group.length)]!),
    );
    estimates.push(statistic(drawn));
  }
  estimates.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return { low: percentile(estimates, tail), high: percentile(estimates, 1 - tail) };
}

/**
 * The exponent k of cost ∝ size^k between two sizes: 1 is linear, 0 constant, 2 quadratic.
 * A cost that did not grow at all (or shrank) gives 0 or less.
 */
export function growthExponent(
  [smallSize, largeSize]: readonly [number, number],
  [smallCost, largeCost]: readonly [number, number],
): number {
  if (!(largeSize > smallSize && smallSize > 0)) {
    throw new RangeError(
      `growth needs 0 < small size < large size, got ${smallSize}, ${largeSize}`,
    );
  }
  if (!(smallCost > 0 && largeCost > 0)) {
    throw new RangeError(`growth needs positive costs, got ${smallCost}, ${largeCost}`);
  }
  return Math.log(largeCost / smallCost) / Math.log(largeSize / smallSize);
}

/** A measured quantity: its median and the bootstrap 95 % interval of that median. */
export interface Estimate {
  readonly value: number;
  /** `×` for ratios, `exponent` for growth exponents, else the unit measured (`ms`, `MB`…). */
  readonly unit: string;
  readonly interval: Interval;
}

/** The median of `values` with its bootstrap interval (a point for a single value). */
export function medianEstimate(values: readonly number[], unit: string): Estimate {
  return {
    value: median(values),
    unit,
    interval: bootstrapInterval([values], (groups) => median(groups[0]!)),
  };
}
