import { langGraphRow } from "./langgraph-row.js";
import type { PairedResult } from "./paired.js";
import { type BenchRow, formatNumber } from "./report.js";
import { bootstrapInterval, growthExponent, intervalVerdict, median } from "./stats.js";

/** Exponent of `samples` medians between the two largest sizes, with its interval. */
function growth(sizes: readonly number[], results: readonly PairedResult[], side: "ours" | "peer") {
  const last = sizes.length - 1;
  const span: [number, number] = [sizes[last - 1]!, sizes[last]!];
  const statistic = (groups: readonly (readonly number[])[]) =>
    growthExponent(span, [median(groups[0]!), median(groups[1]!)]);
  const groups = [results[last - 1]![side].samples, results[last]![side].samples];
  return { span, exponent: statistic(groups), interval: bootstrapInterval(groups, statistic) };
}

const linearCap = 1.2;

/** One row per size of a case paired with LangGraph.js, then its growth row: ours' exponent must stay ≤ 1.2. */
export function scaleRows(
  id: string,
  title: (size: number) => string,
  unit: string,
  scale: (ms: number) => number,
  sizes: readonly number[],
  results: readonly PairedResult[],
  target: { bound: number; text: string },
): BenchRow[] {
  const rows: BenchRow[] = results.map((result, index) =>
    langGraphRow({
      id: `${id}-${formatNumber(sizes[index]!)}`,
      title: title(sizes[index]!),
      result,
      unit,
      measure: "time",
      target,
      scale,
      details: { size: sizes[index] },
    }),
  );
  if (sizes.length < 2) return rows;
  const ours = growth(sizes, results, "ours");
  const peer = growth(sizes, results, "peer");
  const n = formatNumber;
  rows.push({
    id: `${id}-growth`,
    title: `${title(sizes[sizes.length - 1]!)}: growth ${n(ours.span[0])} → ${n(ours.span[1])}`,
    ours: { value: ours.exponent, unit: "exponent" },
    langGraph: { value: peer.exponent, unit: "exponent" },
    ratio: `ours ${n(ours.exponent)}, LangGraph ${n(peer.exponent)} (1.0 = linear)`,
    interval: ours.interval,
    target: `exponent ≤ ${linearCap}`,
    verdict: intervalVerdict(ours.interval, { atMost: linearCap }),
    details: { ours, peer },
  });
  return rows;
}
