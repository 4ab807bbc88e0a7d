import { langGraphRow } from "./langgraph-row.js";
import { combineLoads } from "./load-guard.js";
import { maxPeak, type PeakMemory } from "./memory.js";
import type { PairedResult } from "./paired.js";
import { formatNumber, type MeasuredRow, measuredRow } from "./report.js";
import { bootstrapInterval, type Estimate, growthExponent, median } from "./stats.js";
import { target } from "./target.js";

/** Exponent of the medians of `side` between two sizes, with its bootstrap interval. */
function growth(
  span: readonly [number, number],
  [small, large]: readonly [PairedResult, PairedResult],
  side: "ours" | "peer",
): Estimate {
  const statistic = (groups: readonly (readonly number[])[]) =>
    growthExponent(span, [median(groups[0]!), median(groups[1]!)]);
  const groups = [small[side].samples, large[side].samples];
  return {
    value: statistic(groups),
    unit: "exponent",
    interval: bootstrapInterval(groups, statistic),
  };
}

/** The most any result reported for `side`, absent when none did. */
function peakOf(
  memories: readonly PairedResult["memory"][],
  side: "ours" | "peer",
): PeakMemory | undefined {
  const peaks = memories.flatMap((memory) => (memory[side] ? [memory[side]] : []));
  return peaks.length > 0 ? maxPeak(...peaks) : undefined;
}

const linearCap = 1.2;

/** What {@link growthRow} reports. */
export interface GrowthRowOptions {
  readonly id: string;
  readonly title: string;
  /** The two sizes the exponent is taken between, smaller first. */
  readonly span: readonly [number, number];
  /** The paired results at those sizes. */
  readonly results: readonly [PairedResult, PairedResult];
  /** Which column the peer's exponent goes in, and how the ratio text names it. */
  readonly peer: { readonly column: "aiSdk" | "langGraph"; readonly label: string };
  readonly targetText?: string;
}

/**
 * The growth row of a case measured at several sizes: the exponent k of cost ∝ size^k
 * between two sizes for ours (judged: its interval must stay at or below 1.2) and the peer,
 * with the busier load and the larger peaks of the two measurements it comes from.
 */
export function growthRow(options: GrowthRowOptions): MeasuredRow {
  const { span, results, peer } = options;
  const ours = growth(span, results, "ours");
  const theirs = growth(span, results, "peer");
  const n = formatNumber;
  const memories = results.map((result) => result.memory);
  const oursPeak = peakOf(memories, "ours");
  const peerPeak = peakOf(memories, "peer");
  return measuredRow({
    id: options.id,
    title: options.title,
    ours: { value: ours.value, unit: "exponent" },
    [peer.column]: { value: theirs.value, unit: "exponent" },
    ratio: `ours ${n(ours.value)}, ${peer.label} ${n(theirs.value)} (1.0 = linear)`,
    target: target(options.targetText ?? `exponent ≤ ${linearCap}`, "exponent", "<=", linearCap),
    metrics: { exponent: ours, peerExponent: theirs },
    load: combineLoads(results.map((result) => result.load)),
    memory: { ...(oursPeak ? { ours: oursPeak } : {}), ...(peerPeak ? { peer: peerPeak } : {}) },
    details: { span },
  });
}

/** One row per size of a case paired with LangGraph.js, then its growth row: ours' exponent must stay ≤ 1.2. */
export function scaleRows(
  id: string,
  title: (size: number) => string,
  unit: string,
  scale: (ms: number) => number,
  sizes: readonly number[],
  results: readonly PairedResult[],
  goal: { atLeast: number; text: string },
): MeasuredRow[] {
  const rows: MeasuredRow[] = results.map((result, index) =>
    langGraphRow({
      id: `${id}-${formatNumber(sizes[index]!)}`,
      title: title(sizes[index]!),
      result,
      unit,
      measure: "time",
      target: goal,
      scale,
      details: { size: sizes[index] },
    }),
  );
  if (sizes.length < 2) return rows;
  const last = sizes.length - 1;
  const span = [sizes[last - 1]!, sizes[last]!] as const;
  rows.push(
    growthRow({
      id: `${id}-growth`,
      title: `${title(span[1])}: growth ${formatNumber(span[0])} → ${formatNumber(span[1])}`,
      span,
      results: [results[last - 1]!, results[last]!],
      peer: { column: "langGraph", label: "LangGraph" },
    }),
  );
  return rows;
}
