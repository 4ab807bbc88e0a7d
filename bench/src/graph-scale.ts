import { setMaxListeners } from "node:events";
import { defineState, END, FlowStateGraph, MemorySaver, START } from "@framework/graph";
import {
  Annotation,
  MemorySaver as LangGraphMemorySaver,
  END as LG_END,
  START as LG_START,
  StateGraph,
} from "@langchain/langgraph";
import { z } from "zod";
import { expectEqual, nodeNames } from "./graph-run.js";
import { langGraphFanOut } from "./langgraph-graphs.js";
import type { LoadGuardOptions } from "./load-guard.js";
import { collectGarbage, maxPeak } from "./memory.js";
import { ourFanOut } from "./our-graphs.js";
import {
  measureInterleaved,
  measurePaired,
  type Observation,
  type PairedResult,
} from "./paired.js";
import { formatNumber, type MeasuredRow, measuredRow, times } from "./report.js";
import { scaleRows } from "./scale-rows.js";
import { medianEstimate, type Repetitions, timeAsync } from "./stats.js";
import { target } from "./target.js";

/** Sizes of {@link benchGraphScale}; the issue says 10,000 for each. */
export interface GraphScaleOptions {
  /** Branches of the fan-out runs (7a), smallest first; the issue says 10, 1,000, 10,000. */
  readonly fanOutSizes: readonly number[];
  /** Checkpoints of the threads of 7b and 7c, smallest first. */
  readonly threadSizes: readonly number[];
  /** Nodes of the graphs compiled (7d) and of the chain whose checkpoints are weighed (7e). */
  readonly compileNodes: number;
  /** Pairs of the fan-out at 5,000 branches and more (LangGraph takes minutes there). */
  readonly fanOutRepetitions: Repetitions;
  readonly guard: LoadGuardOptions;
  /** Calls timed per sample of 7b and 7c. */
  readonly callsPerSample: number;
  readonly repetitions: Repetitions;
}

/** A thread of a one-node counting loop, and what the items time on it. */
interface LoopThread {
  /** Writes a thread of about `checkpoints` checkpoints. */
  build(threadId: string, checkpoints: number): Promise<void>;
  getState(threadId: string): Promise<void>;
  /**
   * `getState` at the thread's newest checkpoint named by its id (time travel), which no
   * kept state answers: the cost of reading the thread from its checkpoints.
   */
  getStateAtNewest(threadId: string): Promise<void>;
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
  const newest: Record<string, string> = {};
  return {
    async build(threadId, checkpoints) {
      limit = checkpoints - 1;
      await app.invoke({ count: 0 }, config(threadId));
    },
    async getState(threadId) {
      const state = await app.getState(config(threadId));
      if (state.status !== "done") throw new Error(`our thread is ${state.status}`);
    },
    async getStateAtNewest(threadId) {
      newest[threadId] ??= (await app.getState(config(threadId))).checkpoint!.id;
      const at = { configurable: { thread_id: threadId, checkpoint_id: newest[threadId] } };
      const state = await app.getState(at);
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
  const newest: Record<string, string> = {};
  return {
    async build(threadId, checkpoints) {
      limit = checkpoints - 2;
      await app.invoke({ count: 0 }, { ...config(threadId), recursionLimit: checkpoints + 10 });
    },
    async getState(threadId) {
      const state = await app.getState(config(threadId));
      if (state.next.length !== 0) throw new Error("LangGraph's thread is not done");
    },
    async getStateAtNewest(threadId) {
      newest[threadId] ??= (await app.getState(config(threadId))).config.configurable!
        .checkpoint_id as string;
      const at = { configurable: { thread_id: threadId, checkpoint_id: newest[threadId] } };
      const state = await app.getState(at);
      if (state.next.length !== 0) throw new Error("LangGraph's thread is not done");
    },
    async continue(threadId) {
      limit = 1;
      const state = await app.invoke({ count: 0 }, config(threadId));
      expectEqual("LangGraph's continued count", state.count, 1);
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

/** Milliseconds (and extra heap, observed) of compiling `build()`'s graph, which is built beforehand. */
function measureCompile(build: () => CountGraph): Observation {
  const graph = build();
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const app = graph.compile({ checkpointer: new MemorySaver() });
  const ms = performance.now() - started;
  const heapMb = (process.memoryUsage().heapUsed - before) / 1e6;
  if (!app) throw new Error("compile returned nothing");
  return { value: ms, observed: { heapMb } };
}

const CountState = defineState({ count: z.number().default(0) });
type CountGraph = FlowStateGraph<typeof CountState>;

function chainGraph(nodes: number): CountGraph {
  const graph = new FlowStateGraph(CountState);
  const all = nodeNames("n", nodes);
  for (const name of all) graph.addNode(name, (state) => ({ count: state.count + 1 }));
  graph.addEdge(START, all[0]!);
  for (let index = 1; index < nodes; index++) graph.addEdge(all[index - 1]!, all[index]!);
  graph.addEdge(all[nodes - 1]!, END);
  return graph;
}

function fanOutGraph(nodes: number): CountGraph {
  const graph = new FlowStateGraph(CountState);
  graph.addNode("join", () => ({}));
  for (const name of nodeNames("f", nodes - 1)) {
    graph
      .addNode(name, () => ({}))
      .addEdge(START, name)
      .addEdge(name, "join");
  }
  graph.addEdge("join", END);
  return graph;
}

/**
 * 7e: bytes of the node-end checkpoints at step 10 (or the first after it without a
 * snapshot) and at the run's last step without one.
 */
async function chainCheckpointBytes(nodes: number): Promise<{ early: number; late: number }> {
  const saver = new MemorySaver();
  const app = chainGraph(nodes).compile({ checkpointer: saver, stepLimit: nodes });
  await app.invoke({ count: 0 }, { configurable: { thread_id: "chain" } });
  const sizes = saver.checkpointBytes("chain");
  // Seq k is the end of step k. Snapshot checkpoints hold the whole state: compare the others.
  const deltas: number[] = [];
  for await (const checkpoint of saver.list("chain")) {
    if (checkpoint.version === 2 && !checkpoint.snapshot) deltas.push(checkpoint.seq);
  }
  // Newest first.
  return { early: sizes[deltas.findLast((seq) => seq >= 10)!]!, late: sizes[deltas[0]!]! };
}

/**
 * Item 7 (issues #14, #19): sizes where engines break, each paired with LangGraph.js. 7a a
 * fan-out of each size; 7b `getState` and 7c a continuing `invoke` on threads of each size,
 * each with its growth exponent between the two largest sizes; 7d compile of a 10,000-node
 * chain and fan-out; 7e checkpoint bytes early and late in one long run.
 */
export async function benchGraphScale(options: GraphScaleOptions): Promise<MeasuredRow[]> {
  const { fanOutSizes, threadSizes, compileNodes, callsPerSample, guard } = options;
  const n = formatNumber;
  // LangGraph adds an abort listener per parallel task to one signal.
  setMaxListeners(Math.max(...fanOutSizes) + 10);
  const fans: PairedResult[] = [];
  for (const size of fanOutSizes) {
    const repetitions = size >= 5000 ? options.fanOutRepetitions : options.repetitions;
    // Built and compiled before the clock starts: 7a times the run alone.
    const ours = ourFanOut(size);
    const peer = langGraphFanOut(size);
    let thread = 0;
    fans.push(
      await measurePaired(
        () => timeAsync(() => ours(`fan-${++thread}`)),
        () => timeAsync(() => peer(`fan-${++thread}`)),
        { ...repetitions, better: "lower", gcBeforeSample: true, guard },
      ),
    );
  }

  const ours = ourLoop();
  const langGraph = langGraphLoop();
  for (const size of threadSizes) {
    await ours.build(`t${size}`, size);
    await langGraph.build(`t${size}`, size);
  }
  const paired = { ...options.repetitions, better: "lower" as const, guard };
  /** `call` on each side's thread of every size, paired, smallest first. */
  const perSize = async (call: (loop: LoopThread, threadId: string) => Promise<void>) => {
    const results: PairedResult[] = [];
    for (const size of threadSizes) {
      results.push(
        await measurePaired(
          () => perCall(callsPerSample, () => call(ours, `t${size}`)),
          () => perCall(callsPerSample, () => call(langGraph, `t${size}`)),
          paired,
        ),
      );
    }
    return results;
  };
  const getStates = await perSize((loop, threadId) => loop.getState(threadId));
  const coldGetStates = await perSize((loop, threadId) => loop.getStateAtNewest(threadId));
  const continues = await perSize((loop, threadId) => loop.continue(threadId));

  // No peer compiles 10,000 nodes in reasonable time: the chain and the fan-out are measured
  // side by side instead, through the same guard.
  const compiles = await measureInterleaved(
    {
      chain: async () => measureCompile(() => chainGraph(compileNodes)),
      fanOut: async () => measureCompile(() => fanOutGraph(compileNodes)),
    },
    { ...options.repetitions, guard },
  );
  const { chain, fanOut } = compiles.contestants;
  const bytes = await measureInterleaved(
    {
      ours: async () => {
        const { early, late } = await chainCheckpointBytes(compileNodes);
        return { value: late / early, observed: { early, late } };
      },
    },
    { ...options.repetitions, guard },
  );
  const weighed = bytes.contestants.ours;
  const asSeconds = (ms: number) => ms / 1000;
  const same = (value: number) => value;
  return [
    ...scaleRows(
      "7a",
      (size) => `Graph: fan-out to ${n(size)} branches, one join`,
      "s",
      asSeconds,
      fanOutSizes,
      fans,
      { atLeast: 1, text: "faster than LangGraph (ratio ≥ 1)" },
    ),
    ...scaleRows(
      "7b",
      (size) => `getState on a ${n(size)}-checkpoint thread`,
      "µs",
      same,
      threadSizes,
      getStates,
      { atLeast: 1, text: "≤ LangGraph's time (ratio ≥ 1)" },
    ),
    ...scaleRows(
      "7f",
      (size) => `getState by checkpoint id (newest) on a ${n(size)}-checkpoint thread`,
      "µs",
      same,
      threadSizes,
      coldGetStates,
      { atLeast: 1, text: "≤ LangGraph's time (ratio ≥ 1)" },
    ),
    ...scaleRows(
      "7c",
      (size) => `invoke continuing a ${n(size)}-checkpoint thread`,
      "µs",
      same,
      threadSizes,
      continues,
      { atLeast: 1, text: "≤ LangGraph's time (ratio ≥ 1)" },
    ),
    measuredRow({
      id: "7d",
      title: `compile a ${n(compileNodes)}-node chain / fan-out`,
      ours: { value: Math.max(chain.values.median, fanOut.values.median), unit: "ms" },
      ratio:
        `chain ${n(chain.values.median)} ms, ${n(chain.observed.heapMb!.median)} MB; ` +
        `fan-out ${n(fanOut.values.median)} ms, ${n(fanOut.observed.heapMb!.median)} MB`,
      target: {
        text: "< 200 ms and < 100 MB each",
        criteria: [
          { metric: "chainMs", comparator: "<", threshold: 200 },
          { metric: "fanOutMs", comparator: "<", threshold: 200 },
          { metric: "chainHeapMb", comparator: "<", threshold: 100 },
          { metric: "fanOutHeapMb", comparator: "<", threshold: 100 },
        ],
      },
      metrics: {
        chainMs: medianEstimate(chain.values.samples, "ms"),
        fanOutMs: medianEstimate(fanOut.values.samples, "ms"),
        chainHeapMb: medianEstimate(chain.observed.heapMb!.samples, "MB"),
        fanOutHeapMb: medianEstimate(fanOut.observed.heapMb!.samples, "MB"),
      },
      load: compiles.load,
      memory: { ours: maxPeak(chain.memory!, fanOut.memory!) },
      note: "the chain's and the fan-out's compiles are measured in turns, as pairs are.",
      details: { compileNodes, chain, fanOut },
    }),
    measuredRow({
      id: "7e",
      title: `checkpoint bytes at step 10 vs step ${n(compileNodes - 1)} of one chain run`,
      ours: { value: weighed.observed.late!.median, unit: "B" },
      reference: { value: weighed.observed.early!.median, unit: "B", label: "step 10" },
      ratio: `late ÷ early ${times(weighed.values.median)}`,
      target: target("< 2×", "lateOverEarly", "<", 2),
      metrics: { lateOverEarly: medianEstimate(weighed.values.samples, "×") },
      load: bytes.load,
      memory: { ours: weighed.memory! },
      note:
        "node-end checkpoints without a snapshot; one also holds the whole state and frontier " +
        "once those since the last snapshot outweigh it (snapshotRatio), which bounds reads. " +
        "The bytes do not vary from run to run, so the interval is a point.",
      details: { compileNodes, ...weighed },
    }),
  ];
}
