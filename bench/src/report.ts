import { writeFile } from "node:fs/promises";
import { arch, cpus, platform } from "node:os";

/** Whether a benchmark reached its target. */
export type Verdict = "met" | "missed";

/** A value of the table with its unit, e.g. `{ value: 41.2, unit: "µs" }`. */
export interface Quantity {
  readonly value: number;
  readonly unit: string;
}

/** One line of the results table: one measured item of issue #8. */
export interface BenchRow {
  /** The item's number in the issue: `1`, `2a` … `6`. */
  readonly id: string;
  readonly title: string;
  /** Our framework's result. */
  readonly ours: Quantity;
  /** The Vercel AI SDK's result, for items it takes part in. */
  readonly aiSdk?: Quantity;
  /** LangGraph.js's result, for items it takes part in. */
  readonly langGraph?: Quantity;
  /** What ours is held against when it is not a peer: a critical path, a sequential run. */
  readonly reference?: Quantity & { readonly label: string };
  /** The ratios the target is about, worded so the reader needs no legend. */
  readonly ratio: string;
  readonly target: string;
  readonly verdict: Verdict;
  /** Why a target was missed, or what the numbers mean. */
  readonly note?: string;
  /** Raw summaries and settings, kept in results.json only. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The machine a run happened on, as results.json records it. */
export interface Environment {
  readonly node: string;
  readonly cpu: string;
  readonly cores: number;
  readonly platform: string;
}

/** Everything `bench/results.json` holds. */
export interface Results {
  readonly generatedAt: string;
  /** `full`, or `smoke` (one repetition of each item at small sizes: timings mean nothing). */
  readonly mode: "full" | "smoke";
  readonly environment: Environment;
  readonly durationSeconds: number;
  readonly rows: readonly BenchRow[];
}

/** Node version, CPU model and core count of this machine. */
export function currentEnvironment(): Environment {
  const processors = cpus();
  return {
    node: process.version,
    cpu: processors[0]?.model.trim() ?? "unknown",
    cores: processors.length,
    platform: `${platform()} ${arch()}`,
  };
}

/**
 * `value` with thousands separated: whole numbers as they are, others rounded to about three
 * significant digits.
 */
export function formatNumber(value: number): string {
  const magnitude = Math.abs(value);
  const digits = Number.isInteger(value) || magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  return value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** A ratio as the table prints it, e.g. `3.41×`. */
export function times(ratio: number): string {
  return `${formatNumber(ratio)}×`;
}

function cell(quantity: Quantity | undefined): string {
  return quantity ? `${formatNumber(quantity.value)} ${quantity.unit}` : "—";
}

const verdictText: Record<Verdict, string> = { met: "met", missed: "**missed**" };

/** The results as a Markdown table (readable in a terminal, pasteable into a README). */
export function renderTable(rows: readonly BenchRow[]): string {
  const header = [
    "#",
    "Benchmark",
    "Ours",
    "AI SDK",
    "LangGraph.js",
    "Reference",
    "Ratio",
    "Target",
    "Result",
  ];
  const lines = rows.map((row) => [
    row.id,
    row.title,
    cell(row.ours),
    cell(row.aiSdk),
    cell(row.langGraph),
    row.reference ? `${cell(row.reference)} (${row.reference.label})` : "—",
    row.ratio,
    row.target,
    verdictText[row.verdict],
  ]);
  const table = [header, header.map(() => "---"), ...lines]
    .map((columns) => `| ${columns.join(" | ")} |`)
    .join("\n");
  const notes = rows
    .filter((row) => row.note)
    .map((row) => `- **${row.id}**: ${row.note}`)
    .join("\n");
  return notes ? `${table}\n\n${notes}` : table;
}

/** One line naming the machine, printed above the table. */
export function describeEnvironment(environment: Environment): string {
  return `Node ${environment.node} · ${environment.cpu} (${environment.cores} cores) · ${environment.platform}`;
}

/** Writes `results` as pretty-printed JSON. */
export async function writeResults(path: string, results: Results): Promise<void> {
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}
