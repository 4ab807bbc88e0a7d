import type { AgentLoopOptions } from "./agent-loop.js";
import type { CheckpointGrowthOptions } from "./checkpoint-growth.js";
import type { CheckpointersOptions } from "./checkpointers.js";
import type { CrewWallTimeOptions } from "./crew-wall-time.js";
import type { DeepSearchBenchOptions } from "./deep-search.js";
import type { GraphEngineOptions } from "./graph-engine.js";
import type { GraphScaleOptions } from "./graph-scale.js";
import type { GraphThreadsOptions } from "./graph-threads.js";
import type { LoadGuardOptions } from "./load-guard.js";
import type { RegistryBenchOptions } from "./registry.js";
import type { Repetitions } from "./stats.js";

/** Sizes and repetitions of every benchmark of one run. */
export interface BenchSettings {
  readonly mode: "full" | "quick" | "smoke";
  readonly agentLoop: AgentLoopOptions;
  readonly graphEngine: GraphEngineOptions;
  readonly crew: CrewWallTimeOptions;
  readonly deepSearch: DeepSearchBenchOptions;
  readonly coldStart: Repetitions;
  readonly checkpointGrowth: CheckpointGrowthOptions;
  readonly graphScale: GraphScaleOptions;
  readonly graphThreads: GraphThreadsOptions;
  readonly registry: RegistryBenchOptions;
  readonly checkpointers: CheckpointersOptions;
}

// Twice the calibration loop's fastest time counts as busy. The budget is small because on
// a machine shared with other builds the load rarely clears; the load is reported instead.
const guard: LoadGuardOptions = { maxSlowdown: 2, pollMs: 500, maxWaitMs: 5_000, maxRemeasures: 2 };

/**
 * The sizes and latencies, with repetitions chosen so medians hold steady on a shared
 * two-core machine while the whole run stays around two minutes.
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
  },
  crew: { latencyMs: 300, warmup: 1, samples: 9 },
  deepSearch: { chapters: 4, llmLatencyMs: 300, searchLatencyMs: 200, warmup: 1, samples: 4 },
  coldStart: { warmup: 1, samples: 12 },
  checkpointGrowth: { steps: 1000, documentBytes: [10_000, 50_000] },
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
};

/**
 * One repetition of each benchmark at small sizes and latencies: proves the harness works
 * (CI runs it), says nothing about speed.
 */
export const smokeSettings: BenchSettings = {
  mode: "smoke",
  agentLoop: {
    repetitions: { warmup: 0, samples: 1 },
    invokesPerSample: 1,
    toolCounts: [1, 10],
    guard: { ...guard, maxWaitMs: 0, maxRemeasures: 0 },
  },
  graphEngine: {
    chainLength: 20,
    fanOut: 10,
    sleepMs: 5,
    throughputRepetitions: { warmup: 0, samples: 1 },
    minSampleMs: 0,
    sleepRepetitions: { warmup: 0, samples: 1 },
  },
  crew: { latencyMs: 5, warmup: 0, samples: 1 },
  deepSearch: { chapters: 2, llmLatencyMs: 5, searchLatencyMs: 5, warmup: 0, samples: 1 },
  coldStart: { warmup: 0, samples: 1 },
  checkpointGrowth: { steps: 20, documentBytes: [1_000, 5_000] },
  graphScale: {
    fanOutSizes: [5, 20],
    threadSizes: [10, 120],
    compileNodes: 150,
    fanOutRepetitions: { warmup: 0, samples: 1 },
    callsPerSample: 1,
    repetitions: { warmup: 0, samples: 1 },
    guard: { ...guard, maxWaitMs: 0, maxRemeasures: 0 },
  },
  graphThreads: {
    chainSizes: [10, 30],
    concurrentThreads: 20,
    idleThreads: 50,
    peerCapMs: 60_000,
    chainRepetitions: { warmup: 0, samples: 1 },
    largeRepetitions: { warmup: 0, samples: 1 },
    repetitions: { warmup: 0, samples: 1 },
    idleRepetitions: { warmup: 0, samples: 1 },
    guard: { ...guard, maxWaitMs: 0, maxRemeasures: 0 },
  },
  registry: {
    tools: 20,
    repetitions: { warmup: 0, samples: 1 },
    guard: { ...guard, maxWaitMs: 0, maxRemeasures: 0 },
  },
  checkpointers: {
    putsPerSample: 5,
    threadSteps: 3,
    getStatesPerSample: 2,
    repetitions: { warmup: 0, samples: 1 },
    guard: { ...guard, maxWaitMs: 0, maxRemeasures: 0 },
  },
};

/**
 * Enough pairs for intervals that mean something at small sizes, for development: well under
 * two minutes. Results are printed, never written.
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
  crew: { latencyMs: 100, warmup: 1, samples: 3 },
  deepSearch: { chapters: 2, llmLatencyMs: 100, searchLatencyMs: 60, warmup: 1, samples: 3 },
  coldStart: { warmup: 0, samples: 3 },
  checkpointGrowth: { steps: 200, documentBytes: [10_000, 50_000] },
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
};
