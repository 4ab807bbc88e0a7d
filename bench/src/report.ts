import { readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { arch, cpus, platform } from "node:os";
import type { LoadSummary } from "./load-guard.js";
import type { PeakMemory } from "./memory.js";
import type { Estimate } from "./stats.js";
import { type Target, verdictOf } from "./target.js";

/** Whether a benchmark reached its target, or why it has no answer here. */
export type Verdict = "met" | "missed" | "skipped" | "failed";

/** A value of the table with its unit, e.g. `{ value: 41.2, unit: "µs" }`. */
export interface Quantity {
  readonly value: number;
  readonly unit: string;
}

/** What every row has, whatever became of it. */
interface RowBase {
  /** The item's number in the issues: `1a`, `2a` … `10b-postgres`. */
  readonly id: string;
  readonly title: string;
  /** What the numbers mean, or why a target was missed. */
  readonly note?: string;
  /** Raw samples and settings, kept in results.json only. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A row that was measured: its numbers, its target and the verdict they give. */
export interface MeasuredRow extends RowBase {
  /** Computed by {@link verdictOf} from `target` and `metrics`, never set by hand. */
  readonly verdict: "met" | "missed";
  readonly ours: Quantity;
  /** The Vercel AI SDK's result, for items it takes part in. */
  readonly aiSdk?: Quantity;
  /** LangGraph.js's result, for items it takes part in. */
  readonly langGraph?: Quantity;
  /** What ours is held against when it is not a peer: a critical path, a floor, a bound. */
  readonly reference?: Quantity & { readonly label: string };
  /** The ratios the row is about, worded so the reader needs no legend. */
  readonly ratio: string;
  readonly target: Target;
  /**
   * The estimates (median and bootstrap 95 % interval) the target's criteria name, and any
   * other the row reports; `ratio` is the paired "how many times better ours is".
   */
  readonly metrics: Readonly<Record<string, Estimate>>;
  /** The machine's load while the row was measured. */
  readonly load: LoadSummary;
  /**
   * Peak heap and RSS while ours ran and while the other side of the pair did (a peer, a
   * floor, a replay). A side run in child processes reports the children's own; it is absent
   * only when every such run was killed before it could say.
   */
  readonly memory: { readonly ours?: PeakMemory; readonly peer?: PeakMemory };
}

/** A row that could not be measured here (no server to measure against), and why. */
export interface SkippedRow extends RowBase {
  readonly verdict: "skipped";
  readonly target: Target;
  readonly reason: string;
}

/** What an item threw, with secrets redacted: its class name and message. */
export interface RowError {
  readonly name: string;
  readonly message: string;
}

/** The one row of an item that threw: the rows of the other items are kept. */
export interface FailedRow extends RowBase {
  readonly verdict: "failed";
  readonly error: RowError;
}

/** One line of the results table. */
export type BenchRow = MeasuredRow | SkippedRow | FailedRow;

/** A measured row with its verdict computed from its target and metrics. */
export function measuredRow(row: Omit<MeasuredRow, "verdict">): MeasuredRow {
  return { ...row, verdict: verdictOf(row.target, row.metrics) };
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

/** How much a run measures: the sizes, small sizes, or each code path once. */
export type BenchMode = "full" | "quick" | "smoke";

/** The version of the layout of {@link Results}, raised whenever a reader would need to know. */
export const resultsSchemaVersion = 2;

/** Everything `bench/results.json` (or `results.local.json`) holds. */
export interface Results {
  readonly schemaVersion: typeof resultsSchemaVersion;
  /** When the run started. */
  readonly generatedAt: string;
  /** `full`, `quick` (small sizes) or `smoke` (one repetition at tiny sizes: timings mean nothing). */
  readonly mode: BenchMode;
  /** The items run, when only some were chosen (`--only`). */
  readonly only?: readonly string[];
  /** False while items are still running, or when the run stopped before its end. */
  readonly complete: boolean;
  readonly environment: Environment;
  /** Seconds from the start to this write. */
  readonly durationSeconds: number;
  readonly rows: readonly BenchRow[];
}

const peerPackages = [
  "@langchain/langgraph",
  "@langchain/core",
  "ai",
  "@openai/agents-core",
  "@langchain/langgraph-api",
  "@langchain/langgraph-sdk",
];

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
  failed: "**failed**",
};

function loadCell(load: LoadSummary): string {
  const extra = load.remeasured > 0 ? `, ${load.remeasured} re-measured` : "";
  return `${formatNumber(load.loadPerCoreMedian)}/core, ×${formatNumber(load.slowdownMedian)} cpu${extra}`;
}

function memoryCell(memory: MeasuredRow["memory"]): string {
  const peak = (value: PeakMemory | undefined) =>
    value ? `${formatNumber(value.heapMb)} / ${formatNumber(value.rssMb)} MB` : "unknown";
  return `ours ${peak(memory.ours)}; other ${peak(memory.peer)}`;
}

function intervalText({ interval, unit }: Estimate): string {
  const range = `${formatNumber(interval.low)}–${formatNumber(interval.high)}`;
  return unit === "×" ? `${range}×` : `${range} ${unit}`;
}

/** The intervals the verdict was read from: each criterion's, named when there are several. */
function intervalCell(row: MeasuredRow): string {
  const { criteria } = row.target;
  return criteria
    .map(({ metric }) => {
      const text = intervalText(row.metrics[metric]!);
      return criteria.length > 1 ? `${metric} ${text}` : text;
    })
    .join("; ");
}

function rowCells(row: BenchRow): string[] {
  const result = verdictText[row.verdict];
  if (row.verdict === "failed") {
    return [row.id, row.title, "—", "—", "—", "—", "—", "—", "—", result, "—", "—"];
  }
  if (row.verdict === "skipped") {
    return [row.id, row.title, "—", "—", "—", "—", "—", "—", row.target.text, result, "—", "—"];
  }
  return [
    row.id,
    row.title,
    cell(row.ours),
    cell(row.aiSdk),
    cell(row.langGraph),
    row.reference ? `${cell(row.reference)} (${row.reference.label})` : "—",
    row.ratio,
    intervalCell(row),
    row.target.text,
    result,
    loadCell(row.load),
    memoryCell(row.memory),
  ];
}

function noteOf(row: BenchRow): string | undefined {
  if (row.verdict === "failed") {
    const failed = `failed: ${row.error.name}: ${row.error.message}`;
    return row.note ? `${failed} ${row.note}` : failed;
  }
  if (row.verdict === "skipped") return `skipped: ${row.reason}`;
  return row.note;
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
  const table = [header, header.map(() => "---"), ...rows.map(rowCells)]
    .map((columns) => `| ${columns.join(" | ")} |`)
    .join("\n");
  const notes = rows
    .flatMap((row) => {
      const note = noteOf(row);
      return note ? [`- **${row.id}**: ${note}`] : [];
    })
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

/**
 * Writes `text` to `path` through a temporary file renamed over it, so a run stopped midway
 * (killed, out of memory) leaves the last complete file, never half of one.
 */
export async function writeFileWhole(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

/** Writes `results` as pretty-printed JSON, whole (see {@link writeFileWhole}). */
export async function writeResults(path: string, results: Results): Promise<void> {
  await writeFileWhole(path, `${JSON.stringify(results, null, 2)}\n`);
}
