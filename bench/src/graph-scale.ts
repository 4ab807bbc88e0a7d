import { setMaxListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  DEFAULT_SNAPSHOT_EVERY,
  defineState,
  END,
  FlowStateGraph,
  MemorySaver,
  START,
} from "@framework/graph";
import {
  Annotation,
  MemorySaver as LangGraphMemorySaver,
  END as LG_END,
  START as LG_START,
  StateGraph,
} from "@langchain/langgraph";
import { z } from "zod";
import { langGraphFanOut, ourFanOut } from "./graph-engine.js";
import { type BenchRow, formatNumber, times } from "./report.js";
import { median, type Repetitions, sampleInterleaved, timeAsync } from "./stats.js";

/** Sizes of {@link benchGraphScale}; the issue says 10,000 for each. */
export interface GraphScaleOptions {
  /** Branches of the fan-out run (7a). */
  readonly fanOut: number;
  /** Checkpoints of the long thread (7b, 7c). */
  readonly threadLength: number;
  /** Checkpoints of the short thread 7c compares with. */
  readonly shortThreadLength: number;
  /** Nodes of the graphs compiled (7d) and of the chain whose checkpoints are weighed (7e). */
  readonly compileNodes: number;
  /** Runs of the fan-out per contestant (LangGraph takes minutes at 10,000). */
  readonly fanOutRepetitions: Repetitions;
  /** Calls timed per sample of 7b and 7c. */
  readonly callsPerSample: number;
  readonly repetitions: Repetitions;
}

const names = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}${index}`);

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`${what}: got ${String(actual)}, expected ${expected}`);
}

// A forced collection before each heap reading, so garbage of earlier items is not counted.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** A thread of a one-node counting loop, and what the items time on it. */
interface LoopThread {
  /** Writes a thread of about `checkpoints` checkpoints. */
  build(threadId: string, checkpoints: number): Promise<void>;
  getState(threadId: string): Promise<void>;
  /** A new input on the thread: one more step, two more checkpoints. */
  continue(threadId: string): Promise<void>;
}

/** Ours: `{ count }` with a node adding one until `limit`. */
function ourLoop(): LoopThread {
  const State = defineState({ count: z.number().default(0) });
  let limit = 0;
  const app = new FlowStateGraph(State)
    .addNode("step", (state) => ({ count: state.count + 1 }))
    .addEdge(START, "step")
    .addConditionalEdges("step", (state) => (state.count >= limit ? END : "step"), ["step", END])
    .compile({ checkpointer: new MemorySaver(), stepLimit: Number.MAX_SAFE_INTEGER });
  const config = (threadId: string) => ({ configurable: { thread_id: threadId } });
  return {
    async build(threadId, checkpoints) {
      limit = checkpoints - 1;
      await app.invoke({ count: 0 }, config(threadId));
    },
    async getState(threadId) {
      const state = await app.getState(config(threadId));
      if (state.status !== "done") throw new Error(`our thread is ${state.status}`);
    },
    async continue(threadId) {
      limit = 1;
      const state = await app.invoke({ count: 0 }, config(threadId));
      expectEqual("our continued count", state.count, 1);
    },
  };
}

/** LangGraph.js: the same loop as a `StateGraph` with its `MemorySaver`. */
function langGraphLoop(): LoopThread {
  const State = Annotation.Root({ count: Annotation<number> });
  let limit = 0;
  const app = new StateGraph(State)
    .addNode("step", (state) => ({ count: state.count + 1 }))
    .addEdge(LG_START, "step")
    .addConditionalEdges("step", (state) => (state.count >= limit ? LG_END : "step"), [
      "step",
      LG_END,
    ])
    .compile({ checkpointer: new LangGraphMemorySaver() });
  const config = (threadId: string) => ({ configurable: { thread_id: threadId } });
  return {
    async build(threadId, checkpoints) {
      limit = checkpoints - 2;
      await app.invoke({ count: 0 }, { ...config(threadId), recursionLimit: checkpoints + 10 });
    },
    async getState(threadId) {
      const state = await app.getState(config(threadId));
      if (state.next.length !== 0) throw new Error("LangGraph's thread is not done");
    },
    async continue() {
      throw new Error("not compared: 7c is ours against ours");
    },
  };
}

/** Microseconds per call of `call`, over `calls` calls. */
async function perCall(calls: number, call: () => Promise<void>): Promise<number> {
  const ms = await timeAsync(async () => {
    for (let index = 0; index < calls; index++) await call();
  });
  return (ms * 1000) / calls;
}

/** Milliseconds and extra heap of compiling `build()`'s graph, which is built beforehand. */
function measureCompile(build: () => CountGraph): { ms: number; heapMb: number } {
  const graph = build();
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const app = graph.compile({ checkpointer: new MemorySaver() });
  const ms = performance.now() - started;
  const heapMb = (process.memoryUsage().heapUsed - before) / 1e6;
  if (!app) throw new Error("compile returned nothing");
  return { ms, heapMb };
}

const CountState = defineState({ count: z.number().default(0) });
type CountGraph = FlowStateGraph<typeof CountState>;

function chainGraph(nodes: number): CountGraph {
  const graph = new FlowStateGraph(CountState);
  const all = names("n", nodes);
  for (const name of all) graph.addNode(name, (state) => ({ count: state.count + 1 }));
  graph.addEdge(START, all[0]!);
  for (let index = 1; index < nodes; index++) graph.addEdge(all[index - 1]!, all[index]!);
  graph.addEdge(all[nodes - 1]!, END);
  return graph;
}

function fanOutGraph(nodes: number): CountGraph {
  const graph = new FlowStateGraph(CountState);
  graph.addNode("join", () => ({}));
  for (const name of names("f", nodes - 1)) {
    graph
      .addNode(name, () => ({}))
      .addEdge(START, name)
      .addEdge(name, "join");
  }
  graph.addEdge("join", END);
  return graph;
}

/** 7e: bytes of the node-end checkpoints at step 10 and at the last step of one chain run. */
async function chainCheckpointBytes(nodes: number): Promise<{ early: number; late: number }> {
  const saver = new MemorySaver();
  const app = chainGraph(nodes).compile({ checkpointer: saver, stepLimit: nodes });
  await app.invoke({ count: 0 }, { configurable: { thread_id: "chain" } });
  const sizes = saver.checkpointBytes("chain");
  // Seq k is the end of step k. Snapshot checkpoints hold the whole state: compare the others.
  const late = (nodes - 1) % DEFAULT_SNAPSHOT_EVERY === 0 ? nodes - 2 : nodes - 1;
  return { early: sizes[10]!, late: sizes[late]! };
}

/**
 * Item 7 (issue #14): costs that must not grow with the graph or the thread. 7a a wide
 * fan-out run against LangGraph.js; 7b `getState` on a long thread against LangGraph.js;
 * 7c continuing a long thread against continuing a short one; 7d compile time and heap of
 * a 10,000-node chain and fan-out; 7e checkpoint bytes early and late in one long run.
 */
export async function benchGraphScale(options: GraphScaleOptions): Promise<BenchRow[]> {
  const { fanOut, threadLength, shortThreadLength, compileNodes, callsPerSample } = options;
  // LangGraph adds an abort listener per parallel task to one signal.
  setMaxListeners(fanOut + 10);
  const fan = await sampleInterleaved(
    {
      // Built and compiled before the clock starts: 7a times the run alone.
      ours: () => {
        const run = ourFanOut(fanOut);
        return timeAsync(() => run("fan"));
      },
      langGraph: () => {
        const run = langGraphFanOut(fanOut);
        return timeAsync(() => run("fan"));
      },
    },
    options.fanOutRepetitions,
  );

  const ours = ourLoop();
  const langGraph = langGraphLoop();
  await ours.build("long", threadLength);
  await ours.build("short", shortThreadLength);
  await langGraph.build("long", threadLength);
  const getState = await sampleInterleaved(
    {
      ours: () => perCall(callsPerSample, () => ours.getState("long")),
      langGraph: () => perCall(callsPerSample, () => langGraph.getState("long")),
    },
    options.repetitions,
  );
  const continued = await sampleInterleaved(
    {
      long: () => perCall(callsPerSample, () => ours.continue("long")),
      short: () => perCall(callsPerSample, () => ours.continue("short")),
    },
    options.repetitions,
  );

  const compiles = { chain: [] as number[], fan: [] as number[] };
  const heaps = { chain: [] as number[], fan: [] as number[] };
  for (let round = 0; round < options.repetitions.warmup + options.repetitions.samples; round++) {
    const chain = measureCompile(() => chainGraph(compileNodes));
    const wide = measureCompile(() => fanOutGraph(compileNodes));
    if (round < options.repetitions.warmup) continue;
    compiles.chain.push(chain.ms);
    compiles.fan.push(wide.ms);
    heaps.chain.push(chain.heapMb);
    heaps.fan.push(wide.heapMb);
  }
  const compile = {
    chainMs: median(compiles.chain),
    fanMs: median(compiles.fan),
    chainHeapMb: median(heaps.chain),
    fanHeapMb: median(heaps.fan),
  };
  const bytes = await chainCheckpointBytes(compileNodes);

  const fanRatio = fan.langGraph.median / fan.ours.median;
  const getStateRatio = getState.langGraph.median / getState.ours.median;
  const continueRatio = continued.long.median / continued.short.median;
  const bytesRatio = bytes.late / bytes.early;
  const n = formatNumber;
  return [
    {
      id: "7a",
      title: `Graph: fan-out to ${n(fanOut)} branches, one join`,
      ours: { value: fan.ours.median / 1000, unit: "s" },
      langGraph: { value: fan.langGraph.median / 1000, unit: "s" },
      ratio: `LangGraph ÷ ours ${times(fanRatio)}`,
      target: "≥ 10× faster than LangGraph",
      verdict: fanRatio >= 10 ? "met" : "missed",
      details: { fanOut, ...fan },
    },
    {
      id: "7b",
      title: `getState on a ${n(threadLength)}-checkpoint thread`,
      ours: { value: getState.ours.median, unit: "µs" },
      langGraph: { value: getState.langGraph.median, unit: "µs" },
      ratio: `LangGraph ÷ ours ${times(getStateRatio)}`,
      target: "≤ LangGraph's time",
      verdict: getStateRatio >= 1 ? "met" : "missed",
      details: { threadLength, callsPerSample, ...getState },
    },
    {
      id: "7c",
      title: `invoke continuing a ${n(threadLength)}- vs a ${n(shortThreadLength)}-checkpoint thread`,
      ours: { value: continued.long.median, unit: "µs" },
      reference: {
        value: continued.short.median,
        unit: "µs",
        label: `${n(shortThreadLength)}-checkpoint thread`,
      },
      ratio: `long ÷ short ${times(continueRatio)}`,
      target: "within 2× of the short thread",
      verdict: continueRatio <= 2 ? "met" : "missed",
      note:
        "each continuation is a new input running one node (two checkpoints), so both threads " +
        "grow while measured; reads start at the newest snapshot, at most " +
        `${DEFAULT_SNAPSHOT_EVERY} checkpoints back.`,
      details: { threadLength, shortThreadLength, callsPerSample, ...continued },
    },
    {
      id: "7d",
      title: `compile a ${n(compileNodes)}-node chain / fan-out`,
      ours: { value: Math.max(compile.chainMs, compile.fanMs), unit: "ms" },
      ratio:
        `chain ${n(compile.chainMs)} ms, ${n(compile.chainHeapMb)} MB; ` +
        `fan-out ${n(compile.fanMs)} ms, ${n(compile.fanHeapMb)} MB`,
      target: "< 200 ms and < 100 MB each",
      verdict:
        Math.max(compile.chainMs, compile.fanMs) < 200 &&
        Math.max(compile.chainHeapMb, compile.fanHeapMb) < 100
          ? "met"
          : "missed",
      details: { compileNodes, compiles, heaps },
    },
    {
      id: "7e",
      title: `checkpoint bytes at step 10 vs step ${n(compileNodes - 1)} of one chain run`,
      ours: { value: bytes.late, unit: "B" },
      reference: { value: bytes.early, unit: "B", label: "step 10" },
      ratio: `late ÷ early ${times(bytesRatio)}`,
      target: "< 2×",
      verdict: bytesRatio < 2 ? "met" : "missed",
      note:
        `node-end checkpoints; every ${DEFAULT_SNAPSHOT_EVERY}th also holds a snapshot of the ` +
        "whole state and frontier, which is what bounds reads.",
      details: { compileNodes, ...bytes },
    },
  ];
}
