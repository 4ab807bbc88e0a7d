import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { LoadGuardOptions } from "./load-guard.js";
import { measureInterleaved, type Observation, roundRatios } from "./paired.js";
import { type MeasuredRow, measuredRow, times } from "./report.js";
import { medianEstimate, type Repetitions } from "./stats.js";
import { target } from "./target.js";

/** Settings of {@link benchColdStart}. */
export interface ColdStartOptions {
  /** Rounds of one fresh process per contestant. */
  readonly repetitions: Repetitions;
  readonly guard: LoadGuardOptions;
}

/** What each fresh process imports. */
const imports = {
  ours: '[import("@framework/core"), import("@framework/graph")]',
  aiSdk: '[import("ai")]',
  langGraph: '[import("@langchain/langgraph")]',
} as const;

// Bare specifiers resolve from bench/, whose node_modules links the workspace packages; their
// `import` condition points at dist/, so the built packages are what gets loaded.
const benchDirectory = fileURLToPath(new URL("..", import.meta.url));

/**
 * Milliseconds a fresh `node` process takes to `await import(…)` `modules`, timed inside it
 * (so the process's own start, the same for everyone, is not counted), with its peak RSS and
 * its heap once the import is done.
 */
async function importInChild(modules: string): Promise<Observation> {
  const program =
    "const started = performance.now();\n" +
    `await Promise.all(${modules});\n` +
    "const ms = performance.now() - started;\n" +
    // maxRSS is in kibibytes.
    "const rssMb = (process.resourceUsage().maxRSS * 1024) / 1e6;\n" +
    "console.log(JSON.stringify({ ms, heapMb: process.memoryUsage().heapUsed / 1e6, rssMb }));";
  // A loader injected by the runner (tsx, vitest) must not slow the children down.
  const { NODE_OPTIONS: _, ...env } = process.env;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", program], {
    cwd: benchDirectory,
    env,
    encoding: "utf8",
  });
  if (child.status !== 0) {
    throw new Error(
      `node -e 'await import(${modules})' failed (${child.error?.message ?? `exit ${child.status}`}). ` +
        "Build the packages first: pnpm exec turbo run build --filter=@framework/bench^...\n" +
        child.stderr,
    );
  }
  const report = JSON.parse(child.stdout) as { ms: number; heapMb: number; rssMb: number };
  return { value: report.ms, memory: { heapMb: report.heapMb, rssMb: report.rssMb } };
}

/**
 * Item 5: the time to import `@framework/core` + `@framework/graph` (built) in a fresh Node
 * process, against `@langchain/langgraph` (the target) and `ai`: one process per contestant
 * and round, in turns, each timing its own `await import(…)`; the ratio is read round by round.
 */
export async function benchColdStart({
  repetitions,
  guard,
}: ColdStartOptions): Promise<MeasuredRow> {
  const { contestants, load } = await measureInterleaved(
    {
      ours: () => importInChild(imports.ours),
      langGraph: () => importInChild(imports.langGraph),
      aiSdk: () => importInChild(imports.aiSdk),
    },
    { ...repetitions, guard, memory: "reported" },
  );
  const { ours, langGraph, aiSdk } = contestants;
  const ratio = medianEstimate(roundRatios(ours.values, langGraph.values, "lower"), "×");
  const aiSdkRatio = medianEstimate(roundRatios(ours.values, aiSdk.values, "lower"), "×");
  return measuredRow({
    id: "5",
    title: "Cold start: import in a fresh Node process",
    ours: { value: ours.values.median, unit: "ms" },
    aiSdk: { value: aiSdk.values.median, unit: "ms" },
    langGraph: { value: langGraph.values.median, unit: "ms" },
    ratio: `LangGraph ÷ ours ${times(ratio.value)}; AI SDK ÷ ours ${times(aiSdkRatio.value)}`,
    target: target("< ½ of LangGraph's (ratio > 2)", "ratio", ">", 2),
    metrics: { ratio, aiSdkRatio },
    load,
    memory: {
      ...(ours.memory ? { ours: ours.memory } : {}),
      ...(langGraph.memory ? { peer: langGraph.memory } : {}),
    },
    note:
      "each import is timed inside its own fresh process; the memory column is those " +
      "processes' (peak RSS, and the heap once imported), LangGraph.js's as the other side.",
    details: { imports, ours, langGraph, aiSdk },
  });
}
