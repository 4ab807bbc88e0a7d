import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { arch, cpus, platform } from "node:os";
import type { LoadSummary } from "./load-guard.js";
import type { PeakMemory } from "./memory.js";
import type { Interval } from "./stats.js";

/** Whether a benchmark reached its target, or why it could not be measured here. */
export type Verdict = "met" | "missed" | "skipped";

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
  /** Our framework's result; absent only for a skipped row, whose note says why. */
  readonly ours?: Quantity;
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
  /** Bootstrap 95 % interval of the paired ratio the verdict is about. */
  readonly interval?: Interval;
  /** The machine's load while the row was measured. */
  readonly load?: LoadSummary;
  /** Peak heap and RSS while ours ran (and the peer, for paired rows). */
  readonly memory?: { readonly ours: PeakMemory; readonly peer?: PeakMemory };
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
  /** Versions of the peers measured against, as installed. */
  readonly peers: Readonly<Record<string, string>>;
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

const peerPackages = ["@langchain/langgraph", "@langchain/core", "ai", "@openai/agents-core"];

// Read from the installed package itself: a pinned range in package.json is not a version.
function installedVersion(name: string): string {
  const path = new URL(`../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
}

/** Node version, CPU model and core count of this machine. */
export function currentEnvironment(): Environment {
  const processors = cpus();
  return {
    node: process.version,
    cpu: processors[0]?.model.trim() ?? "unknown",
    cores: processors.length,
    platform: `${platform()} ${arch()}`,
    peers: Object.fromEntries(peerPackages.map((name) => [name, installedVersion(name)])),
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

const verdictText: Record<Verdict, string> = {
  met: "met",
  missed: "**missed**",
  skipped: "skipped",
};

function loadCell(load: LoadSummary): string {
  const extra = load.remeasured > 0 ? `, ${load.remeasured} re-measured` : "";
  return `${formatNumber(load.loadPerCoreMedian)}/core, ×${formatNumber(load.slowdownMedian)} cpu${extra}`;
}

function memoryCell(memory: NonNullable<BenchRow["memory"]>): string {
  const peak = (value: { heapMb: number; rssMb: number }) =>
    `${formatNumber(value.heapMb)} / ${formatNumber(value.rssMb)} MB`;
  return memory.peer ? `ours ${peak(memory.ours)}; peer ${peak(memory.peer)}` : peak(memory.ours);
}

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
    "95% interval",
    "Target",
    "Result",
    "Load",
    "Peak heap / RSS",
  ];
  const lines = rows.map((row) => [
    row.id,
    row.title,
    cell(row.ours),
    cell(row.aiSdk),
    cell(row.langGraph),
    row.reference ? `${cell(row.reference)} (${row.reference.label})` : "—",
    row.ratio,
    row.interval ? `${formatNumber(row.interval.low)}–${formatNumber(row.interval.high)}×` : "—",
    row.target,
    verdictText[row.verdict],
    row.load ? loadCell(row.load) : "—",
    row.memory ? memoryCell(row.memory) : "—",
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
  const peers = Object.entries(environment.peers)
    .map(([name, version]) => `${name} ${version}`)
    .join(", ");
  return `Node ${environment.node} · ${environment.cpu} (${environment.cores} cores) · ${environment.platform} · peers: ${peers}`;
}

/** Writes `results` as pretty-printed JSON. */
export async function writeResults(path: string, results: Results): Promise<void> {
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}
