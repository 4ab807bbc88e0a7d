import { type BenchRow, type Results, resultsSchemaVersion } from "./report.js";
import { verdictOf } from "./target.js";

function problemsOf(row: BenchRow): string[] {
  if (row.verdict === "failed") {
    return row.error?.name && row.error.message ? [] : ["a failed row without its error"];
  }
  if (!row.target?.text || !Array.isArray(row.target.criteria)) return ["no target"];
  if (row.verdict === "skipped") return row.reason ? [] : ["skipped without a reason"];
  const problems: string[] = [];
  for (const { metric } of row.target.criteria) {
    const interval = row.metrics?.[metric]?.interval;
    if (!interval || !Number.isFinite(interval.low) || !Number.isFinite(interval.high)) {
      problems.push(`no finite 95 % interval for its target's metric "${metric}"`);
    }
  }
  if (!row.load) problems.push("no load figure");
  if (!row.memory?.ours) problems.push("no peak memory of ours");
  if (problems.length > 0) return problems;
  const recomputed = verdictOf(row.target, row.metrics);
  return recomputed === row.verdict ? [] : [`says ${row.verdict}, its numbers say ${recomputed}`];
}

/**
 * What is wrong with `results` as a record a reader can check: each measured row's verdict
 * recomputed from its own target and metrics (by {@link verdictOf}, as the run computed it),
 * the interval, load and peak memory every measured row must carry, the reason of a skipped
 * row and the error of a failed one. Empty when everything holds.
 */
export function verifyResults(results: Results): string[] {
  if (results.schemaVersion !== resultsSchemaVersion) {
    return [
      `schema version ${String(results.schemaVersion)}, expected ${resultsSchemaVersion}: ` +
        "the file predates this bench; run it again",
    ];
  }
  return results.rows.flatMap((row) => problemsOf(row).map((problem) => `${row.id}: ${problem}`));
}
