import type { AgentLoopOptions } from "./agent-loop.js";
import type { CheckpointGrowthOptions } from "./checkpoint-growth.js";
import type { CheckpointersOptions } from "./checkpointers.js";
import type { ColdStartOptions } from "./cold-start.js";
import type { CrewWallTimeOptions } from "./crew-wall-time.js";
import type { DeepSearchBenchOptions } from "./deep-search.js";
import type { GraphEngineOptions } from "./graph-engine.js";
import type { GraphScaleOptions } from "./graph-scale.js";
import type { GraphThreadsOptions } from "./graph-threads.js";
import type { LoadGuardOptions } from "./load-guard.js";
import type { RegistryBenchOptions } from "./registry.js";
import type { BenchMode } from "./report.js";
import type { ServerBenchOptions } from "./server.js";

/** Sizes and repetitions of every benchmark of one run. */
export interface BenchSettings {
  readonly mode: BenchMode;
  readonly agentLoop: AgentLoopOptions;
  readonly graphEngine: GraphEngineOptions;
  readonly crew: CrewWallTimeOptions;
  readonly deepSearch: DeepSearchBenchOptions;
  readonly coldStart: ColdStartOptions;
  readonly checkpointGrowth: CheckpointGrowthOptions;
  readonly graphScale: GraphScaleOptions;
  readonly graphThreads: GraphThreadsOptions;
  readonly registry: RegistryBenchOptions;
  readonly checkpointers: CheckpointersOptions;
  readonly server: ServerBenchOptions;
}

// Twice the calibration loop's fastest time counts as busy. The budget is small because on
// a machine shared with other builds the load rarely clears; the load is reported instead.
const guard: LoadGuardOptions = { maxSlowdown: 2, pollMs: 500, maxWaitMs: 5_000, maxRemeasures: 2 };

/**
 * The sizes and latencies, with repetitions chosen so medians hold steady on a shared
 * two-core machine while the whole run stays around ten minutes.
 */
export const fullSettings: BenchSettings = {
  mode: "full",
  agentLoop: {
    repetitions: { warmup: 3, samples: 15 },
    invokesPerSample: 20,
    toolCounts: [1, 10, 100],
    guard,
  },
  graphEngine: {
    chainLength: 200,
    fanOut: 100,
    sleepMs: 50,
    throughputRepetitions: { warmup: 1, samples: 7 },
    minSampleMs: 250,
    sleepRepetitions: { warmup: 2, samples: 15 },
    guard,
  },
  crew: { latencyMs: 300, repetitions: { warmup: 1, samples: 9 }, guard },
  deepSearch: {
    chapters: 4,
    llmLatencyMs: 300,
    searchLatencyMs: 200,
    repetitions: { warmup: 1, samples: 4 },
    guard,
  },
  coldStart: { repetitions: { warmup: 1, samples: 12 }, guard },
  // The bytes are the same from run to run: one pair (about 10 s, LangGraph.js storing 50 MB).
  checkpointGrowth: {
    steps: 1000,
    documentBytes: [10_000, 50_000],
    repetitions: { warmup: 0, samples: 1 },
    guard,
  },
  // LangGraph.js needs about two minutes for one 10,000-branch run; three pairs there (about
  // 6.5 minutes) are the fewest whose interval says something about our growth exponent.
  graphScale: {
    fanOutSizes: [10, 1000, 10_000],
    threadSizes: [10, 1000, 10_000],
    compileNodes: 10_000,
    fanOutRepetitions: { warmup: 0, samples: 3 },
    callsPerSample: 50,
    repetitions: { warmup: 1, samples: 7 },
    guard,
  },
  // LangGraph.js takes minutes for one 10,000-node chain: one pair there, capped.
  graphThreads: {
    chainSizes: [1000, 10_000],
    concurrentThreads: 1000,
    idleThreads: 10_000,
    peerCapMs: 90_000,
    chainRepetitions: { warmup: 0, samples: 5 },
    largeRepetitions: { warmup: 0, samples: 1 },
    repetitions: { warmup: 1, samples: 7 },
    idleRepetitions: { warmup: 0, samples: 2 },
    guard,
  },
  registry: { tools: 1000, repetitions: { warmup: 2, samples: 11 }, guard },
  checkpointers: {
    // A sample of puts long enough to span the disk work one side leaves to the next (SQLite's
    // WAL checkpoints, the kernel writing back dirty pages): with 300 the side that ran second
    // in a pair was up to a quarter slower, whichever it was.
    putsPerSample: 3_000,
    threadSteps: 20,
    getStatesPerSample: 100,
    repetitions: { warmup: 1, samples: 9 },
    guard,
  },
  // LangGraph's server takes about 0.6 s per run to answer (see item 11's notes): five runs
  // per sample keep a round of 11a or 11b near three seconds.
  server: {
    waitsPerSample: 5,
    streamsPerSample: 5,
    clients: 100,
    runsPerClient: 5,
    idleThreads: 1000,
    warmupRuns: 400,
    repetitions: { warmup: 1, samples: 11 },
    throughputRepetitions: { warmup: 1, samples: 7 },
    idleRepetitions: { warmup: 0, samples: 3 },
    guard,
  },
};

// A smoke run never waits for the machine to calm down nor measures a pair twice.
const once = { warmup: 0, samples: 1 };
const noWait: LoadGuardOptions = { ...guard, maxWaitMs: 0, maxRemeasures: 0 };

/**
 * Each item's code path once, at the smallest sizes that still take it (two sizes where a
 * growth row is computed, a chapter after the first, a step past a snapshot), with 1 ms
 * latencies: proves the harness works (CI runs it beside the other tests, on a loaded
 * machine), says nothing about speed. Its cost is mostly fresh processes (items 5 and 7g).
 */
export const smokeSettings: BenchSettings = {
  mode: "smoke",
  agentLoop: { repetitions: once, invokesPerSample: 1, toolCounts: [1, 2], guard: noWait },
  graphEngine: {
    chainLength: 3,
    fanOut: 3,
    sleepMs: 1,
    throughputRepetitions: once,
    minSampleMs: 0,
    sleepRepetitions: once,
    guard: noWait,
  },
  crew: { latencyMs: 1, repetitions: once, guard: noWait },
  deepSearch: {
    chapters: 2,
    llmLatencyMs: 1,
    searchLatencyMs: 1,
    repetitions: once,
    guard: noWait,
  },
  coldStart: { repetitions: once, guard: noWait },
  checkpointGrowth: { steps: 10, documentBytes: [100, 500], repetitions: once, guard: noWait },
  graphScale: {
    fanOutSizes: [2, 4],
    threadSizes: [3, 6],
    // 7e weighs the checkpoint at step 10 and a later one.
    compileNodes: 30,
    fanOutRepetitions: once,
    callsPerSample: 1,
    repetitions: once,
    guard: noWait,
  },
  graphThreads: {
    chainSizes: [2, 4],
    concurrentThreads: 3,
    idleThreads: 3,
    peerCapMs: 60_000,
    chainRepetitions: once,
    largeRepetitions: once,
    repetitions: once,
    idleRepetitions: once,
    guard: noWait,
  },
  registry: { tools: 2, repetitions: once, guard: noWait },
  checkpointers: {
    putsPerSample: 2,
    threadSteps: 2,
    getStatesPerSample: 1,
    repetitions: once,
    guard: noWait,
  },
  server: {
    waitsPerSample: 1,
    streamsPerSample: 1,
    clients: 2,
    runsPerClient: 1,
    idleThreads: 2,
    warmupRuns: 2,
    repetitions: once,
    throughputRepetitions: once,
    idleRepetitions: once,
    guard: noWait,
  },
};

/**
 * Enough pairs for intervals that mean something at small sizes, for development: about two
 * minutes on an idle machine. Written to results.local.json, never committed.
 */
export const quickSettings: BenchSettings = {
  ...fullSettings,
  mode: "quick",
  agentLoop: {
    ...fullSettings.agentLoop,
    repetitions: { warmup: 1, samples: 7 },
    invokesPerSample: 5,
  },
  graphEngine: {
    ...fullSettings.graphEngine,
    throughputRepetitions: { warmup: 1, samples: 5 },
    minSampleMs: 100,
    sleepRepetitions: { warmup: 1, samples: 5 },
  },
  crew: { ...fullSettings.crew, latencyMs: 100, repetitions: { warmup: 1, samples: 3 } },
  deepSearch: {
    ...fullSettings.deepSearch,
    chapters: 2,
    llmLatencyMs: 100,
    searchLatencyMs: 60,
    repetitions: { warmup: 1, samples: 3 },
  },
  coldStart: { ...fullSettings.coldStart, repetitions: { warmup: 0, samples: 3 } },
  checkpointGrowth: { ...fullSettings.checkpointGrowth, steps: 200 },
  graphScale: {
    ...fullSettings.graphScale,
    fanOutSizes: [10, 1000],
    threadSizes: [10, 1000],
    compileNodes: 2000,
    callsPerSample: 10,
    repetitions: { warmup: 1, samples: 5 },
  },
  graphThreads: {
    ...fullSettings.graphThreads,
    chainSizes: [100, 1000],
    idleThreads: 1000,
    chainRepetitions: { warmup: 0, samples: 3 },
    repetitions: { warmup: 0, samples: 3 },
    idleRepetitions: { warmup: 0, samples: 1 },
  },
  registry: { ...fullSettings.registry, repetitions: { warmup: 1, samples: 7 } },
  checkpointers: {
    ...fullSettings.checkpointers,
    putsPerSample: 1_000,
    getStatesPerSample: 30,
    repetitions: { warmup: 1, samples: 5 },
  },
  server: {
    ...fullSettings.server,
    waitsPerSample: 3,
    streamsPerSample: 3,
    runsPerClient: 3,
    repetitions: { warmup: 1, samples: 5 },
    throughputRepetitions: { warmup: 1, samples: 5 },
    idleRepetitions: { warmup: 0, samples: 1 },
  },
};
