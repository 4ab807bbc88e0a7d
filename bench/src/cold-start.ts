import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type BenchRow, times } from "./report.js";
import { type Repetitions, sampleInterleaved, timeAsync } from "./stats.js";

/** What each fresh process imports; `baseline` imports nothing. */
const programs = {
  baseline: "",
  ours: 'await Promise.all([import("@framework/core"), import("@framework/graph")]);',
  aiSdk: 'await import("ai");',
  langGraph: 'await import("@langchain/langgraph");',
} as const;

// Bare specifiers resolve from bench/, whose node_modules links the workspace packages; their
// `import` condition points at dist/, so the built packages are what gets loaded.
const benchDirectory = fileURLToPath(new URL("..", import.meta.url));

/** Milliseconds from spawning `node` on `program` to its exit. */
function spawnNode(program: string): Promise<number> {
  // A loader injected by the runner (tsx, vitest) must not slow the children down.
  const { NODE_OPTIONS: _, ...env } = process.env;
  return timeAsync(async () => {
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", program], {
      cwd: benchDirectory,
      env,
      encoding: "utf8",
    });
    if (child.status !== 0) {
      throw new Error(
        `node -e '${program}' failed (${child.error?.message ?? `exit ${child.status}`}). ` +
          "Build the packages first: pnpm exec turbo run build --filter=@framework/bench^...\n" +
          child.stderr,
      );
    }
  });
}

/**
 * Item 5: the time to import `@framework/core` + `@framework/graph` (built) in a fresh Node
 * process, against `ai` and `@langchain/langgraph`: the median wall time of spawning
 * `node -e 'await import(…)'`, minus the median of spawning one that imports nothing.
 */
export async function benchColdStart(repetitions: Repetitions): Promise<BenchRow> {
  const results = await sampleInterleaved(
    {
      baseline: () => spawnNode(programs.baseline),
      ours: () => spawnNode(programs.ours),
      aiSdk: () => spawnNode(programs.aiSdk),
      langGraph: () => spawnNode(programs.langGraph),
    },
    repetitions,
  );
  const baseline = results.baseline.median;
  const net = (median: number) => Math.max(median - baseline, 0);
  const ours = net(results.ours.median);
  const aiSdk = net(results.aiSdk.median);
  const langGraph = net(results.langGraph.median);
  const ratio = ours / langGraph;
  return {
    id: "5",
    title: "Cold start: import in a fresh Node process",
    ours: { value: ours, unit: "ms" },
    aiSdk: { value: aiSdk, unit: "ms" },
    langGraph: { value: langGraph, unit: "ms" },
    reference: { value: baseline, unit: "ms", label: "empty process, subtracted" },
    ratio: `ours ÷ LangGraph ${times(ratio)}; ours ÷ AI SDK ${times(ours / aiSdk)}`,
    target: "< ½ of LangGraph",
    verdict: ratio < 0.5 ? "met" : "missed",
    details: { programs, ...results },
  };
}
