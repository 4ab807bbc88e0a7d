import {
  type ChatModel,
  ConfigurationError,
  FrameworkError,
  getDefaultLogger,
  type Logger,
  withRedaction,
} from "@framework/core";
import { EventChannel, warnDeprecated } from "@framework/core/internal";
import {
  type Checkpointer,
  type CompiledGraph,
  DEFAULT_THREAD_ID,
  MemorySaver,
  NodeExecutionError,
} from "@framework/graph";
import { createTavilySearch, type WebSearch } from "@framework/tools-websearch";
import {
  type DeepSearchEvent,
  type DeepSearchReporter,
  type DoneEvent,
  reporterEntry,
} from "./events/deep-search-event.js";
import { formatReport } from "./report/format-report.js";
import { ChapterPrefetch } from "./search/chapter-prefetch.js";
import { DEFAULT_SEARCH_CONCURRENCY } from "./search/concurrent-search.js";
import type { AgentState } from "./state/agent-state.js";
import {
  type DeepSearchLimits,
  defaultDeepSearchLimits,
  maxSteps,
  runInput,
} from "./state/run-input.js";

import { createDeepSearchGraph } from "./workflow/deep-search-graph.js";

/** Options of {@link DeepSearch}. */
export interface DeepSearchOptions {
  /** Plans, writes, critiques and derives the critique's queries. */
  llm: ChatModel;
  /**
   * Runs one web search. Defaults to the Tavily client of `@framework/tools-websearch`, which
   * reads `TAVILY_API_KEY` and `TAVILY_API_URL` at each search.
   */
  search?: WebSearch;
  /** Where each thread's state is saved after every step. Default: a new `MemorySaver`. */
  checkpointer?: Checkpointer;
  /** Receives the step lines and warnings (secrets redacted). Default: the process-wide logger. */
  logger?: Logger;
  /**
   * Searches of one step in flight at once; default {@link DEFAULT_SEARCH_CONCURRENCY}. 1
   * searches one query after the other, in the spec's order.
   */
  searchConcurrency?: number;
  /**
   * Start every chapter's searches as soon as the planner has the outline, so they overlap
   * with the writing of earlier chapters. Default: on when `searchConcurrency` is above 1;
   * with 1 each chapter searches at its first draft, as the spec's sequential flow does.
   */
  prefetchChapterSearches?: boolean;
}

/** Options of one run; unset limits take the spec's defaults (4, 5, 3 and 1). */
export interface DeepSearchRunOptions extends Partial<DeepSearchLimits> {
  /**
   * The checkpoint thread (`configurable.thread_id`); default `"1"`. A new run on a thread
   * replaces its report.
   */
  threadId?: string | number;
  /**
   * @deprecated Use `threadId` (same meaning); `thread` still works, warns once per process,
   * and goes away in the next minor version.
   */
  thread?: string | number;
  /** Cancels the run: model calls and searches stop, and it rejects with `AbortedError`. */
  signal?: AbortSignal;
}

/** Options of {@link DeepSearch.streamingResponse}. */
export interface DeepSearchResponseOptions extends DeepSearchRunOptions {
  /**
   * Receives each step as it happens (the outline, each chapter's searches, its writing, each
   * critique and revision): typed events, for a progress display, not log text.
   */
  onEvent?: DeepSearchReporter;
}

/**
 * The thread a run was given, under `threadId` or its deprecated name `thread` (which warns
 * once per process).
 *
 * @throws ConfigurationError when both are given and differ.
 */
function threadIdOf(options: DeepSearchRunOptions): string | number | undefined {
  const { threadId, thread } = options;
  if (thread === undefined) return threadId;
  if (threadId !== undefined && String(threadId) !== String(thread)) {
    throw new ConfigurationError({
      setting: "threadId",
      message: "A deep-search run takes threadId or its deprecated name thread, not two threads",
    });
  }
  warnDeprecated(
    "FRAMEWORK_DEEPSEARCH_THREAD",
    "@framework/tools-deepsearch: the thread option is deprecated, pass the same thread as threadId; thread goes away in the next minor version",
  );
  return thread;
}

// A failure that explains itself (a missing key, a model call that failed, cancellation)
// reaches the caller as it is, not wrapped in the graph's "node failed" error.
function unwrapNodeFailure(error: unknown): unknown {
  return NodeExecutionError.isInstance(error) && FrameworkError.isInstance(error.cause)
    ? error.cause
    : error;
}

/**
 * The deep-search workflow: a graph (`planner → generate → reflect → research_critique →
 * generate …`) that plans a multi-chapter report, researches each chapter on the web, writes
 * it, critiques it and revises it. The graph is checkpointed per thread.
 *
 * @example
 * const deepSearch = new DeepSearch({ llm: new OpenAIChatModel() });
 * const report = await deepSearch.streamingResponse("Bitcoin in 2025", { maxChapters: 3 });
 */
export class DeepSearch {
  /** The compiled workflow; `graph.getState({ configurable: { thread_id } })` reads a thread. */
  readonly graph: CompiledGraph<typeof AgentState>;
  /** Where the graph saves its checkpoints. */
  readonly checkpointer: Checkpointer;

  /** @throws RangeError when `searchConcurrency` is not a positive integer. */
  constructor(options: DeepSearchOptions) {
    const searchConcurrency = options.searchConcurrency ?? DEFAULT_SEARCH_CONCURRENCY;
    if (!Number.isInteger(searchConcurrency) || searchConcurrency < 1) {
      throw new RangeError(
        `searchConcurrency must be a positive integer (1 searches one query at a time), got ${searchConcurrency}`,
      );
    }
    this.checkpointer = options.checkpointer ?? new MemorySaver();
    this.graph = createDeepSearchGraph({
      llm: options.llm,
      // The client reads the key per search, so a missing key fails the first search, not this.
      search: options.search ?? createTavilySearch(),
      searchConcurrency,
      ...((options.prefetchChapterSearches ?? searchConcurrency > 1)
        ? { prefetch: new ChapterPrefetch() }
        : {}),
    }).compile({
      checkpointer: this.checkpointer,
      logger: withRedaction(options.logger ?? getDefaultLogger()),
    });
  }

  /**
   * Runs the workflow for `query`, yielding progress events as they happen and, last, a
   * `done` event with the report and the final state. Logs `Agent name: <node> : <update>`
   * per step (the update as JSON) and, while generating, the chapter title and
   * `revision_number`. Leaving the loop early cancels the run.
   *
   * @throws ConfigurationError (a missing key, or `threadId` and `thread` naming two
   *   threads), ModelCallError, SearchError (a rejected key), EmptyOutlineError, AbortedError,
   *   StateValidationError (a limit below 1), or NodeExecutionError naming the node for any
   *   other failure.
   */
  async *stream(
    query: string,
    options: DeepSearchRunOptions = {},
  ): AsyncGenerator<DeepSearchEvent> {
    const limits: DeepSearchLimits = {
      maxChapters: options.maxChapters ?? defaultDeepSearchLimits.maxChapters,
      maxParagraphsPerChapter:
        options.maxParagraphsPerChapter ?? defaultDeepSearchLimits.maxParagraphsPerChapter,
      maxCriticalQueries: options.maxCriticalQueries ?? defaultDeepSearchLimits.maxCriticalQueries,
      maxRevisions: options.maxRevisions ?? defaultDeepSearchLimits.maxRevisions,
    };
    const queue = new EventChannel<DeepSearchEvent>();
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const config = {
      configurable: {
        thread_id: String(threadIdOf(options) ?? DEFAULT_THREAD_ID),
        ...reporterEntry((event) => queue.push(event)),
      },
      signal,
      stepLimit: maxSteps(limits),
    };
    const run = this.graph.invoke(runInput(query, limits), config).then(
      (state) => {
        const report = formatReport(state.sections, state.chapters, state.sources);
        queue.push({ type: "done", report, state });
        queue.close();
      },
      (error: unknown) => queue.close({ error: unwrapNodeFailure(error) }),
    );
    try {
      yield* queue;
    } finally {
      stop.abort(new Error("the deep-search stream was closed before the run ended"));
      await run;
    }
  }

  /**
   * Runs the workflow for `query` and returns the report: `# I. Planning`, the sections (one
   * per line), a blank line, `# II. Results`, then each chapter after `## `, chapters
   * separated by a blank line, and, when search results were used, `# III. Sources`: the
   * URLs the chapters cite as `[1]`, `[2]`..., one numbered line each. Logs as
   * {@link DeepSearch.stream} does, and hands each progress event to `onEvent`.
   *
   * @throws as {@link DeepSearch.stream}.
   */
  async streamingResponse(query: string, options: DeepSearchResponseOptions = {}): Promise<string> {
    const { onEvent, ...run } = options;
    let done: DoneEvent | undefined;
    for await (const event of this.stream(query, run)) {
      if (event.type === "done") done = event;
      else onEvent?.(event);
    }
    // The stream ends with `done` unless it throws, so this holds after the loop.
    return (done as DoneEvent).report;
  }
}
