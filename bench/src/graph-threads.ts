import { spawn } from "node:child_process";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { defineState, END, FlowStateGraph, MemorySaver, START } from "@framework/graph";
import {
  Annotation,
  MemorySaver as LangGraphMemorySaver,
  END as LG_END,
  START as LG_START,
  StateGraph,
} from "@langchain/langgraph";
import { build } from "esbuild";
import { z } from "zod";
import { expectEqual } from "./graph-run.js";
import { langGraphRow } from "./langgraph-row.js";
import type { LoadGuardOptions } from "./load-guard.js";
import { collectGarbage } from "./memory.js";
import { measurePaired, type Observation, type PairedResult } from "./paired.js";
import { formatNumber, type MeasuredRow } from "./report.js";
import { scaleRows } from "./scale-rows.js";
import { type Repetitions, timeAsync } from "./stats.js";

/** Sizes of {@link benchGraphThreads}. */
export interface GraphThreadsOptions {
  /** Nodes of the chains compiled and run (7g), smallest first; the issue says 10,000. */
  readonly chainSizes: readonly number[];
  /** Threads run at once (7h); the issue says 1,000. */
  readonly concurrentThreads: number;
  /** Threads left idle whose memory is weighed (7i); the issue says 10,000. */
  readonly idleThreads: number;
  /**
   * Longest one chain run (in its own process) may take before it is killed: LangGraph.js's
   * cost grows faster than linearly, and at 10,000 nodes one run took 11 minutes. A killed run
   * counts as the time it ran, so its time and the ratio are lower bounds, and the row says so.
   */
  readonly peerCapMs: number;
  /** Pairs of the chains below 5,000 nodes. */
  readonly chainRepetitions: Repetitions;
  /** Pairs of the chains of 5,000 nodes and more (LangGraph takes minutes there). */
  readonly largeRepetitions: Repetitions;
  /** Pairs of 7h. */
  readonly repetitions: Repetitions;
  /** Pairs of 7i: each weighs every idle thread of both sides (LangGraph: a minute at 10,000). */
  readonly idleRepetitions: Repetitions;
  readonly guard: LoadGuardOptions;
}

const config = (threadId: string) => ({ configurable: { thread_id: threadId } });

// A chain child runs plain Node: its side's builder bundled with the few lines that time it,
// compiled from the bench's TypeScript once per side, every package left for the child to load
// (built, from bench/node_modules). A TypeScript loader in the child would handle every module
// of the framework it imports, costing a second of CPU per child and its own memory.
const benchDirectory = fileURLToPath(new URL("..", import.meta.url));
const sourceDirectory = fileURLToPath(new URL(".", import.meta.url));
const builders = {
  ours: { file: "./our-graphs.ts", name: "ourChain" },
  langGraph: { file: "./langgraph-graphs.ts", name: "langGraphChain" },
} as const;
const chainPrograms = new Map<keyof typeof builders, Promise<string>>();

/** The program of a chain child of `side`, which takes the chain's length as its argument. */
function chainProgram(side: keyof typeof builders): Promise<string> {
  const { file, name } = builders[side];
  const runner =
    `import { ${name} } from ${JSON.stringify(file)};\n` +
    "const length = Number(process.argv[1]);\n" +
    'console.log("start");\n' +
    "const started = performance.now();\n" +
    `await ${name}(length)("chain");\n` +
    "const ms = performance.now() - started;\n" +
    // maxRSS is in kibibytes; the heap at the end is a lower bound of its peak.
    "const rssMb = (process.resourceUsage().maxRSS * 1024) / 1e6;\n" +
    "console.log(JSON.stringify({ ms, heapMb: process.memoryUsage().heapUsed / 1e6, rssMb }));\n";
  let program = chainPrograms.get(side);
  if (!program) {
    program = build({
      stdin: { contents: runner, resolveDir: sourceDirectory, loader: "ts" },
      bundle: true,
      packages: "external",
      format: "esm",
      platform: "node",
      target: "node20",
      write: false,
      logLevel: "silent",
    }).then((result) => result.outputFiles[0]!.text);
    chainPrograms.set(side, program);
  }
  return program;
}

/**
 * 7g: milliseconds a fresh `node` process takes to build, compile and run a chain of `length`
 * nodes with `side`'s builder from item 2, timed inside the child from the moment it says
 * `start` (so process start and imports are not counted), with the child's peak RSS and its
 * heap at the end. A fresh process per run: each side starts from a clean heap, and a run can
 * be killed, the only way to stop LangGraph.js while it builds or compiles (synchronous work
 * no abort signal reaches). A run still going `capMs` after its start is killed, counts as
 * the time it ran (with no memory: it could not say), and is marked capped.
 */
async function chainInChild(
  side: "ours" | "langGraph",
  length: number,
  capMs: number,
  capped: Set<number>,
): Promise<Observation> {
  const program = await chainProgram(side);
  // A loader injected by the runner (tsx, vitest) must not slow the child down.
  const { NODE_OPTIONS: _, ...env } = process.env;
  const child = spawn(process.execPath, ["--input-type=module", "-e", program, String(length)], {
    cwd: benchDirectory,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    let errors = "";
    let started: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (started === undefined && output.startsWith("start\n")) {
        started = performance.now();
        timer = setTimeout(() => child.kill("SIGKILL"), capMs);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      errors += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (signal === "SIGKILL" && started !== undefined) {
        capped.add(length);
        resolve(performance.now() - started);
        return;
      }
      const report = code === 0 ? parseChildReport(output.trim().split("\n").at(-1)) : undefined;
      if (report)
        resolve({ value: report.ms, memory: { heapMb: report.heapMb, rssMb: report.rssMb } });
      else reject(new Error(`the ${side} chain child ended (${code ?? signal}): ${errors}`));
    });
  });
}

/** The last line a chain child prints, or `undefined` when it is not the report. */
function parseChildReport(
  line: string | undefined,
): { ms: number; heapMb: number; rssMb: number } | undefined {
  try {
    const report = JSON.parse(line ?? "") as Record<string, unknown>;
    const numbers = [report.ms, report.heapMb, report.rssMb];
    if (!numbers.every((value) => typeof value === "number" && Number.isFinite(value))) {
      return undefined;
    }
    return report as { ms: number; heapMb: number; rssMb: number };
  } catch {
    return undefined;
  }
}

/** A small conversation-shaped graph: three nodes, each awaiting I/O (one turn of the loop). */
interface ThreeStep {
  run(threadId: string): Promise<void>;
}

const reply = "A short answer, as a model would give one.";

function ourThreeStep(): ThreeStep {
  const State = defineState({
    question: z.string(),
    notes: z.string().default(""),
    count: z.number().default(0),
  });
  const step = async (state: { count: number }) => {
    await yieldToLoop();
    return { notes: reply, count: state.count + 1 };
  };
  const app = new FlowStateGraph(State)
    .addNode("plan", step)
    .addNode("act", step)
    .addNode("answer", step)
    .addEdge(START, "plan")
    .addEdge("plan", "act")
    .addEdge("act", "answer")
    .addEdge("answer", END)
    .compile({ checkpointer: new MemorySaver() });
  return {
    async run(threadId) {
      const state = await app.invoke({ question: threadId }, config(threadId));
      expectEqual("our three-step count", state.count, 3);
    },
  };
}

function langGraphThreeStep(): ThreeStep {
  const State = Annotation.Root({
    question: Annotation<string>,
    notes: Annotation<string>,
    count: Annotation<number>,
  });
  const step = async (state: typeof State.State) => {
    await yieldToLoop();
    return { notes: reply, count: (state.count ?? 0) + 1 };
  };
  const app = new StateGraph(State)
    .addNode("plan", step)
    .addNode("act", step)
    .addNode("answer", step)
    .addEdge(LG_START, "plan")
    .addEdge("plan", "act")
    .addEdge("act", "answer")
    .addEdge("answer", LG_END)
    .compile({ checkpointer: new LangGraphMemorySaver() });
  return {
    async run(threadId) {
      const state = await app.invoke({ question: threadId }, config(threadId));
      expectEqual("LangGraph's three-step count", state.count, 3);
    },
  };
}

let batch = 0;

/** 7h: ms until `threads` runs started at once on fresh threads of a fresh graph are done. */
async function concurrentRuns(build: () => ThreeStep, threads: number): Promise<number> {
  const graph = build();
  const prefix = `c${++batch}-`;
  return timeAsync(() =>
    Promise.all(Array.from({ length: threads }, (_, index) => graph.run(`${prefix}${index}`))),
  );
}

/**
 * 7i: bytes of heap each idle thread keeps: a fresh graph runs `threads` threads one turn
 * each (in batches of 100 at once), then the heap after a forced collection is compared with
 * the heap before, divided by the threads. The saver keeps every thread; nothing else does.
 */
async function idleThreadBytes(build: () => ThreeStep, threads: number): Promise<number> {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const graph = build();
  const prefix = `i${++batch}-`;
  for (let start = 0; start < threads; start += 100) {
    const size = Math.min(100, threads - start);
    await Promise.all(
      Array.from({ length: size }, (_, index) => graph.run(`${prefix}${start + index}`)),
    );
  }
  collectGarbage();
  const bytes = (process.memoryUsage().heapUsed - before) / threads;
  // Keeps the graph (and so its saver) alive until it is weighed.
  if (!graph) throw new Error("the graph vanished");
  return Math.max(bytes, 1);
}

/**
 * Items 7g–7i (issue #19), each paired with LangGraph.js: 7g builds, compiles and runs a chain
 * of each size (with its growth exponent), 7h runs 1,000 threads at once, 7i weighs the heap
 * each of 10,000 idle threads keeps in the in-memory savers.
 */
export async function benchGraphThreads(options: GraphThreadsOptions): Promise<MeasuredRow[]> {
  const { chainSizes, concurrentThreads, idleThreads, guard } = options;
  const n = formatNumber;
  const chains: PairedResult[] = [];
  const capped = new Set<number>();
  for (const size of chainSizes) {
    const repetitions = size >= 5000 ? options.largeRepetitions : options.chainRepetitions;
    chains.push(
      await measurePaired(
        () => chainInChild("ours", size, options.peerCapMs, capped),
        () => chainInChild("langGraph", size, options.peerCapMs, capped),
        { ...repetitions, better: "lower", guard, memory: "reported" },
      ),
    );
  }
  const concurrent = await measurePaired(
    () => concurrentRuns(ourThreeStep, concurrentThreads),
    () => concurrentRuns(langGraphThreeStep, concurrentThreads),
    { ...options.repetitions, better: "lower", gcBeforeSample: true, guard },
  );
  const idle = await measurePaired(
    () => idleThreadBytes(ourThreeStep, idleThreads),
    () => idleThreadBytes(langGraphThreeStep, idleThreads),
    { ...options.idleRepetitions, better: "lower", guard },
  );
  const asSeconds = (ms: number) => ms / 1000;
  const row = (id: string, title: string, result: PairedResult, unit: string, note: string) =>
    langGraphRow({
      id,
      title,
      result,
      unit,
      measure: "time",
      target: { atLeast: 1, text: "≤ LangGraph's (ratio ≥ 1)" },
      note,
    });
  const chainRows = scaleRows(
    "7g",
    (size) => `Graph: build, compile and run a ${n(size)}-node chain`,
    "s",
    asSeconds,
    chainSizes,
    chains,
    { atLeast: 1, text: "faster than LangGraph (ratio ≥ 1)" },
  ).map((chainRow) => {
    const size = chainSizes.find((each) => chainRow.id === `7g-${n(each)}`);
    const cappedHere = size !== undefined ? capped.has(size) : capped.size > 0;
    const perProcess =
      "each run in a fresh process, timed inside it; the memory column is the children's " +
      "(peak RSS, and the heap at the run's end).";
    if (!cappedHere) return size === undefined ? chainRow : { ...chainRow, note: perProcess };
    return {
      ...chainRow,
      ratio: chainRow.ratio.replace("LangGraph ÷ ours ", "LangGraph ÷ ours ≥ "),
      note:
        `LangGraph.js's run was killed at the ${n(options.peerCapMs / 1000)} s cap: its ` +
        `time, the ratio and its growth exponent are lower bounds, and its memory covers ` +
        `only the runs that ended; ${perProcess}`,
    };
  });
  return [
    ...chainRows,
    row(
      "7h",
      `Graph: ${n(concurrentThreads)} threads at once, 3 nodes awaiting I/O each`,
      concurrent,
      "ms",
      "every run on its own thread of one compiled graph with the in-memory saver, all " +
        "started together; the time until the last is done.",
    ),
    {
      ...row(
        "7i",
        `Graph: heap per idle thread, ${n(idleThreads)} threads`,
        idle,
        "B",
        "heap growth after a forced collection once each thread ran one 3-node turn, divided " +
          "by the threads: what each framework's in-memory saver keeps per thread.",
      ),
      ours: { value: Math.round(idle.ours.median), unit: "B" },
      langGraph: { value: Math.round(idle.peer.median), unit: "B" },
    },
  ];
}
