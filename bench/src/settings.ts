import type { AgentLoopOptions } from "./agent-loop.js";
import type { CheckpointGrowthOptions } from "./checkpoint-growth.js";
import type { CrewWallTimeOptions } from "./crew-wall-time.js";
import type { DeepSearchBenchOptions } from "./deep-search.js";
import type { GraphEngineOptions } from "./graph-engine.js";
import type { GraphScaleOptions } from "./graph-scale.js";
import type { Repetitions } from "./stats.js";

/** Sizes and repetitions of every benchmark of one run. */
export interface BenchSettings {
  readonly mode: "full" | "smoke";
  readonly agentLoop: AgentLoopOptions;
  readonly graphEngine: GraphEngineOptions;
  readonly crew: CrewWallTimeOptions;
  readonly deepSearch: DeepSearchBenchOptions;
  readonly coldStart: Repetitions;
  readonly checkpointGrowth: CheckpointGrowthOptions;
  readonly graphScale: GraphScaleOptions;
}

/**
 * The sizes and latencies, with repetitions chosen so medians hold steady on a shared
 * two-core machine while the whole run stays around two minutes.
 */
export const fullSettings: BenchSettings = {
  mode: "full",
  agentLoop: { repetitions: { warmup: 3, samples: 15 }, invokesPerSample: 20 },
  graphEngine: {
    chainLength: 200,
    fanOut: 100,
    sleepMs: 50,
    throughputRepetitions: { warmup: 1, samples: 7 },
    minSampleMs: 250,
    sleepRepetitions: { warmup: 2, samples: 15 },
  },
  crew: { latencyMs: 300, warmup: 1, samples: 9 },
  deepSearch: { chapters: 4, llmLatencyMs: 300, searchLatencyMs: 200, samples: 3 },
  coldStart: { warmup: 1, samples: 12 },
  checkpointGrowth: { steps: 1000, documentBytes: [10_000, 50_000] },
  // LangGraph.js needs minutes for one 10,000-branch run, so 7a runs once per contestant.
  graphScale: {
    fanOut: 10_000,
    threadLength: 10_000,
    shortThreadLength: 10,
    compileNodes: 10_000,
    fanOutRepetitions: { warmup: 0, samples: 1 },
    callsPerSample: 50,
    repetitions: { warmup: 1, samples: 7 },
  },
};

/**
 * One repetition of each benchmark at small sizes and latencies: proves the harness works
 * (CI runs it), says nothing about speed.
 */
export const smokeSettings: BenchSettings = {
  mode: "smoke",
  agentLoop: { repetitions: { warmup: 0, samples: 1 }, invokesPerSample: 1 },
  graphEngine: {
    chainLength: 20,
    fanOut: 10,
    sleepMs: 5,
    throughputRepetitions: { warmup: 0, samples: 1 },
    minSampleMs: 0,
    sleepRepetitions: { warmup: 0, samples: 1 },
  },
  crew: { latencyMs: 5, warmup: 0, samples: 1 },
  deepSearch: { chapters: 2, llmLatencyMs: 5, searchLatencyMs: 5, samples: 1 },
  coldStart: { warmup: 0, samples: 1 },
  checkpointGrowth: { steps: 20, documentBytes: [1_000, 5_000] },
  graphScale: {
    fanOut: 20,
    threadLength: 120,
    shortThreadLength: 10,
    compileNodes: 150,
    fanOutRepetitions: { warmup: 0, samples: 1 },
    callsPerSample: 1,
    repetitions: { warmup: 0, samples: 1 },
  },
};
