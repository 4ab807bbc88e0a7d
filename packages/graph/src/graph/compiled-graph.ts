import { ConfigurationError, getDefaultLogger, type Logger } from "@framework/core";
import type { Checkpointer } from "../checkpoint/checkpointer.js";
import { type StateSnapshot, toStateSnapshot } from "../checkpoint/state-snapshot.js";
import { replayThread } from "../checkpoint/thread-history.js";
import { EventChannel } from "../run/event-channel.js";
import type { GraphEvent } from "../run/graph-event.js";
import { GraphRun, type RunStart } from "../run/graph-run.js";
import type { StateDefinition, StateOf, StateRecord, UpdateOf } from "../state/state-definition.js";
import { type GraphConfig, threadIdOf } from "./graph-config.js";
import type { GraphTopology } from "./graph-topology.js";

/** The default maximum of node runs per invocation. */
export const DEFAULT_STEP_LIMIT = 100;

/** Options of `FlowStateGraph.compile`. */
export interface CompileOptions {
  /** Saves a checkpoint after every node; needed for `getState` and for resuming. */
  checkpointer?: Checkpointer;
  /** Maximum node runs per invocation; default {@link DEFAULT_STEP_LIMIT}. */
  stepLimit?: number;
  /** Receives the graph's debug lines and save failures; default `getDefaultLogger()`. */
  logger?: Logger;
}

/** Options of {@link CompiledGraph.getStateHistory}. */
export interface StateHistoryOptions {
  /** At most this many snapshots, newest first. */
  limit?: number;
}

/**
 * A runnable graph. Each `invoke` or `stream` works on one thread (`configurable.thread_id`,
 * default `"1"`): new input starts a run on top of the thread's saved state, `null` input
 * resumes the thread's failed or cancelled run without re-running finished nodes.
 */
export class CompiledGraph<D extends StateDefinition = StateDefinition> {
  /** The state the graph runs over. */
  readonly definition: D;
  /** Where checkpoints go, if anywhere. */
  readonly checkpointer: Checkpointer | undefined;
  readonly #topology: GraphTopology;
  readonly #stepLimit: number;
  readonly #logger: Logger;

  constructor(definition: D, topology: GraphTopology, options: CompileOptions = {}) {
    this.definition = definition;
    this.#topology = topology;
    this.checkpointer = options.checkpointer;
    this.#stepLimit = options.stepLimit ?? DEFAULT_STEP_LIMIT;
    this.#logger = options.logger ?? getDefaultLogger();
  }

  /**
   * Runs the graph to the end and returns the final state.
   *
   * @throws NodeExecutionError, StateValidationError, StateConflictError, StepLimitError,
   *   GraphValidationError (a router returned an unknown node), or AbortedError (cancelled).
   */
  async invoke(input: UpdateOf<D> | null, config: GraphConfig = {}): Promise<StateOf<D>> {
    const run = await this.#createRun(input, config, () => {});
    return (await run.execute()) as StateOf<D>;
  }

  /**
   * Runs the graph, yielding node start and end events as they happen and a final `done`
   * event with the full state. Leaving the loop early cancels the run (resumable later).
   */
  async *stream(
    input: UpdateOf<D> | null,
    config: GraphConfig = {},
  ): AsyncGenerator<GraphEvent<StateOf<D>, UpdateOf<D>>> {
    const channel = new EventChannel<GraphEvent>();
    const run = await this.#createRun(input, config, (event) => channel.push(event));
    const outcome = run.execute().then(
      (state) => {
        channel.push({ type: "done", state });
        channel.close();
      },
      (error: unknown) => channel.close({ error }),
    );
    try {
      for await (const event of channel) yield event as GraphEvent<StateOf<D>, UpdateOf<D>>;
    } finally {
      run.cancel("the stream was closed before the run ended");
      await outcome;
    }
  }

  /**
   * The thread's current state: full values, the nodes that run next, and the run status.
   *
   * @throws ConfigurationError when the graph was compiled without a checkpointer.
   */
  async getState(config: GraphConfig = {}): Promise<StateSnapshot<StateOf<D>>> {
    const threadId = threadIdOf(config);
    const steps = await replayThread(this.#requireCheckpointer(), threadId, this.definition);
    return toStateSnapshot(threadId, steps[steps.length - 1], this.definition.initialValues());
  }

  /**
   * Every saved state of the thread, newest first.
   *
   * @throws ConfigurationError when the graph was compiled without a checkpointer.
   */
  async *getStateHistory(
    config: GraphConfig = {},
    options: StateHistoryOptions = {},
  ): AsyncGenerator<StateSnapshot<StateOf<D>>> {
    const threadId = threadIdOf(config);
    const steps = await replayThread(this.#requireCheckpointer(), threadId, this.definition);
    const initial = this.definition.initialValues();
    let remaining = options.limit ?? Number.POSITIVE_INFINITY;
    for (let index = steps.length - 1; index >= 0 && remaining > 0; index--, remaining--) {
      yield toStateSnapshot(threadId, steps[index], initial);
    }
  }

  #requireCheckpointer(): Checkpointer {
    if (this.checkpointer) return this.checkpointer;
    throw new ConfigurationError({
      setting: "checkpointer",
      message:
        "This graph keeps no state between runs: compile it with a checkpointer, e.g. " +
        "graph.compile({ checkpointer: new MemorySaver() })",
    });
  }

  async #createRun(
    input: unknown,
    config: GraphConfig,
    emit: (event: GraphEvent) => void,
  ): Promise<GraphRun> {
    const threadId = threadIdOf(config);
    const steps = this.checkpointer
      ? await replayThread(this.checkpointer, threadId, this.definition)
      : [];
    const last = steps[steps.length - 1];
    const latest = last?.checkpoint;
    let start: RunStart = { kind: "new", input };
    if (input === null && latest) {
      start = latest.status === "done" ? { kind: "idle" } : { kind: "resume", from: latest };
    }
    const state: StateRecord = last?.values ?? this.definition.initialValues();
    return new GraphRun({
      definition: this.definition,
      topology: this.#topology,
      checkpointer: this.checkpointer,
      logger: this.#logger,
      config,
      threadId,
      stepLimit: config.stepLimit ?? this.#stepLimit,
      state,
      latest,
      start,
      emit,
    });
  }
}
