import type { Logger } from "@framework/core";
import type { RunManager } from "../run/run-manager.js";
import { StudioAssets } from "./studio-assets.js";
import { StudioSpanProcessor } from "./studio-span-processor.js";
import { recordStudioSpans } from "./studio-tracing.js";

/** The `studio` option of `createServer`, in its long form. */
export interface StudioOptions {
  /**
   * A processor the app added to its own OpenTelemetry tracer provider. Without it the server
   * registers a provider of its own, unless the app registered one, which it never replaces
   * (the Traces view then says that nothing is recorded).
   */
  spanProcessor?: StudioSpanProcessor;
}

/** What a server with the studio on holds: its page and the spans of its recent runs. */
export interface ServerStudio {
  readonly assets: StudioAssets;
  readonly spans: StudioSpanProcessor;
  /** Whether spans reach `spans`. */
  readonly recording: boolean;
  close(): void;
}

/**
 * Turns the studio on for a server: its page, and the spans of the runs `runs` executes
 * (claimed by the thread a `graph_run` span names), recorded in memory.
 */
export function startStudio(
  option: true | StudioOptions,
  runs: RunManager,
  logger: Logger,
): ServerStudio {
  const given = option === true ? undefined : option.spanProcessor;
  const spans = given ?? new StudioSpanProcessor();
  const recording = given ? { recording: true, release: () => {} } : recordStudioSpans(spans);
  if (!recording.recording) {
    logger.warn(
      "Studio: an OpenTelemetry tracer provider is already registered, so the Traces view stays empty; add a StudioSpanProcessor to it and pass it as createServer({ studio: { spanProcessor } })",
    );
  }
  const unclaim = spans.claimRuns((threadId) => runs.executingRun(threadId));
  return {
    assets: new StudioAssets(),
    spans,
    recording: recording.recording,
    close() {
      unclaim();
      recording.release();
    },
  };
}
