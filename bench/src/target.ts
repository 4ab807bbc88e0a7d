import type { Estimate } from "./stats.js";

/** How a metric must compare with a threshold for a criterion to hold. */
export type Comparator = "<" | "<=" | ">" | ">=";

/** One machine-readable condition of a target: `metrics[metric] comparator threshold`. */
export interface Criterion {
  /** The key in the row's `metrics` of the estimate this condition is about. */
  readonly metric: string;
  readonly comparator: Comparator;
  /** In the metric's unit. */
  readonly threshold: number;
}

/** A benchmark's target: the words the table prints and the criteria its verdict follows. */
export interface Target {
  readonly text: string;
  /** The target is met when every one of them holds. */
  readonly criteria: readonly Criterion[];
}

/** The target of one condition, the common case: `metric comparator threshold`. */
export function target(
  text: string,
  metric: string,
  comparator: Comparator,
  threshold: number,
): Target {
  return { text, criteria: [{ metric, comparator, threshold }] };
}

/**
 * Whether one criterion holds for its estimate. The whole 95 % interval must be on the right
 * side of the threshold (its low end for `>`/`>=`, its high end for `<`/`<=`), so a median
 * whose interval straddles the threshold is a miss, not a coin toss called a win.
 */
function holds({ comparator, threshold }: Criterion, { interval }: Estimate): boolean {
  switch (comparator) {
    case ">=":
      return interval.low >= threshold;
    case ">":
      return interval.low > threshold;
    case "<=":
      return interval.high <= threshold;
    case "<":
      return interval.high < threshold;
  }
}

/**
 * The verdict of a measured row: `met` when every criterion of `goal` holds for the row's
 * estimate it names. Every verdict of the bench comes from here, so one can be recomputed
 * from `results.json` alone. A criterion naming a metric the row lacks is a bug: it throws.
 */
export function verdictOf(
  goal: Target,
  metrics: Readonly<Record<string, Estimate>>,
): "met" | "missed" {
  if (goal.criteria.length === 0) throw new RangeError(`the target "${goal.text}" has no criteria`);
  for (const criterion of goal.criteria) {
    const estimate = metrics[criterion.metric];
    if (!estimate) {
      throw new RangeError(
        `the target "${goal.text}" is about a metric "${criterion.metric}" the row lacks`,
      );
    }
    if (!holds(criterion, estimate)) return "missed";
  }
  return "met";
}
