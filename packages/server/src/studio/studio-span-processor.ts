import type { AttributeValue, Context, HrTime } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base";

/** How many runs' spans a {@link StudioSpanProcessor} keeps by default: the most recent. */
export const DEFAULT_STUDIO_TRACED_RUNS = 100;
/** How many spans of one run a {@link StudioSpanProcessor} keeps by default. */
export const DEFAULT_STUDIO_SPANS_PER_RUN = 5_000;

/** Options of {@link StudioSpanProcessor}. */
export interface StudioSpanProcessorOptions {
  /** The most recent runs whose spans are kept. Default {@link DEFAULT_STUDIO_TRACED_RUNS}. */
  maxRuns?: number;
  /** Spans kept per run; later ones are counted, not kept. Default {@link DEFAULT_STUDIO_SPANS_PER_RUN}. */
  maxSpansPerRun?: number;
}

/** One span of a run, as the studio draws it. Times are milliseconds since the epoch. */
export interface StudioSpan {
  readonly spanId: string;
  /** The span it nests under; `null` for the run's `graph_run` span. */
  readonly parentSpanId: string | null;
  readonly traceId: string;
  readonly name: string;
  readonly startTime: number;
  /** `null` while the span is open. */
  readonly endTime: number | null;
  readonly status: "unset" | "ok" | "error";
  readonly statusMessage: string | null;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
}

/** A run whose spans a {@link StudioSpanProcessor} holds. */
export interface StudioTracedRun {
  readonly runId: string;
  readonly threadId: string;
  /** When its first span started (milliseconds since the epoch). */
  readonly startTime: number;
  readonly spans: readonly StudioSpan[];
  /** Spans over the per-run limit, counted but not kept. */
  readonly droppedSpans: number;
}

/** Finds the server run executing on a thread right now, if any. */
export type ExecutingRunLookup = (threadId: string) => string | undefined;

interface HeldRun {
  readonly runId: string;
  readonly threadId: string;
  readonly spans: Span[];
  dropped: number;
}

const GRAPH_RUN_SPAN = "graph_run";
const GRAPH_THREAD_ATTRIBUTE = "graph.thread_id";

const millis = ([seconds, nanos]: HrTime): number => seconds * 1000 + nanos / 1e6;

/**
 * An OpenTelemetry span processor that keeps, in memory, the spans of a server's most recent
 * runs, for the studio's Traces view. A run's spans are the tree under the `graph_run` span
 * `@framework/graph` starts when the server executes it (its nodes' `graph_node` spans, the
 * agents' `invoke_agent`, `chat` and `execute_tool` spans); spans of anything else are not
 * kept. `createServer({ studio: true })` registers one by itself when the process has no
 * tracer provider; an app with its own provider adds one to it and passes it as
 * `studio: { spanProcessor }`.
 *
 * @example
 * const spanProcessor = new StudioSpanProcessor();
 * new NodeSDK({ spanProcessors: [spanProcessor, new BatchSpanProcessor(exporter)] }).start();
 * createServer({ agents, studio: { spanProcessor } });
 */
export class StudioSpanProcessor implements SpanProcessor {
  readonly #maxRuns: number;
  readonly #maxSpansPerRun: number;
  /** Oldest first (a Map keeps insertion order), so the first is the one to forget. */
  readonly #runs = new Map<string, HeldRun>();
  /** The run each kept span belongs to, so its children find it. */
  readonly #runOfSpan = new Map<string, HeldRun>();
  readonly #lookups = new Set<ExecutingRunLookup>();

  constructor(options: StudioSpanProcessorOptions = {}) {
    this.#maxRuns = Math.max(1, options.maxRuns ?? DEFAULT_STUDIO_TRACED_RUNS);
    this.#maxSpansPerRun = Math.max(1, options.maxSpansPerRun ?? DEFAULT_STUDIO_SPANS_PER_RUN);
  }

  /**
   * Lets a server claim the `graph_run` spans of the runs it executes; answers a function
   * that withdraws the claim.
   *
   * @internal
   */
  claimRuns(lookup: ExecutingRunLookup): () => void {
    this.#lookups.add(lookup);
    return () => this.#lookups.delete(lookup);
  }

  /** The kept spans of a run, or `undefined` when none are kept (never traced, or forgotten). */
  run(runId: string): StudioTracedRun | undefined {
    const held = this.#runs.get(runId);
    return held && this.#traced(held);
  }

  /** The runs whose spans are kept, newest first. */
  runs(): StudioTracedRun[] {
    return [...this.#runs.values()].reverse().map((held) => this.#traced(held));
  }

  onStart(span: Span, _parentContext: Context): void {
    const parentId = span.parentSpanContext?.spanId;
    const parentRun = parentId === undefined ? undefined : this.#runOfSpan.get(parentId);
    const held = parentRun ?? this.#claim(span);
    if (!held) return;
    if (held.spans.length >= this.#maxSpansPerRun) {
      held.dropped += 1;
      return;
    }
    held.spans.push(span);
    this.#runOfSpan.set(span.spanContext().spanId, held);
  }

  onEnd(_span: ReadableSpan): void {
    // Spans are kept by reference from their start: an ended span reads as ended.
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {
    this.#runs.clear();
    this.#runOfSpan.clear();
  }

  /** The run a root-level `graph_run` span starts, found by the thread it runs on. */
  #claim(span: Span): HeldRun | undefined {
    if (span.name !== GRAPH_RUN_SPAN) return undefined;
    const threadId = span.attributes[GRAPH_THREAD_ATTRIBUTE];
    if (typeof threadId !== "string") return undefined;
    for (const lookup of this.#lookups) {
      const runId = lookup(threadId);
      if (runId === undefined) continue;
      // A run executed again (resumed after a restart) adds to what it had.
      const held = this.#runs.get(runId) ?? { runId, threadId, spans: [], dropped: 0 };
      this.#runs.delete(runId);
      this.#runs.set(runId, held);
      this.#forgetOldRuns();
      return held;
    }
    return undefined;
  }

  #forgetOldRuns(): void {
    while (this.#runs.size > this.#maxRuns) {
      const [oldest] = this.#runs.values();
      this.#runs.delete(oldest!.runId);
      for (const span of oldest!.spans) this.#runOfSpan.delete(span.spanContext().spanId);
    }
  }

  #traced(held: HeldRun): StudioTracedRun {
    const spans = held.spans.map(studioSpan);
    return {
      runId: held.runId,
      threadId: held.threadId,
      startTime: Math.min(...spans.map((span) => span.startTime)),
      spans,
      droppedSpans: held.dropped,
    };
  }
}

function studioSpan(span: Span): StudioSpan {
  const status = span.status.code === 2 ? "error" : span.status.code === 1 ? "ok" : "unset";
  return {
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? null,
    traceId: span.spanContext().traceId,
    name: span.name,
    startTime: millis(span.startTime),
    endTime: span.ended ? millis(span.endTime) : null,
    status,
    statusMessage: span.status.message ?? null,
    attributes: { ...span.attributes } as Record<string, AttributeValue>,
  };
}
