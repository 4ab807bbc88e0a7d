import { randomUUID } from "node:crypto";
import { ConfigurationError, getDefaultLogger, type Logger } from "@framework/core";
import { EventChannel } from "@framework/core/internal";
import type { StoredCheckpoint } from "../checkpoint/checkpoint.js";
import {
  answersAfterResume,
  frontierOf,
  pendingInterrupts,
  positionAfter,
  type ThreadPoint,
} from "../checkpoint/checkpoint-format.js";
import type { Checkpointer } from "../checkpoint/checkpointer.js";
import { DEFAULT_SNAPSHOT_RATIO, type SnapshotPolicy } from "../checkpoint/snapshot-policy.js";
import {
  type StateCheckpoint,
  type StateSnapshot,
  stateCheckpointOf,
  toStateSnapshot,
} from "../checkpoint/state-snapshot.js";
import { ThreadReader } from "../checkpoint/thread-reader.js";
import { type GraphConfig, threadIdOf } from "../config/graph-config.js";
import { CheckpointNotFoundError } from "../error/checkpoint-not-found-error.js";
import { InterruptNotFoundError } from "../error/interrupt-not-found-error.js";
import { NotInterruptedError } from "../error/not-interrupted-error.js";
import { END_NAME, START_NAME } from "../node/endpoints.js";
import type { GraphEvent } from "../run/graph-event.js";
import { GraphRun, type RunStart } from "../run/graph-run.js";
import { isResume, isResumeByIds, type Resume, type ResumeByIds } from "../run/interrupt.js";
import { deepFreeze } from "../state/deep-freeze.js";
import {
  engineOf,
  type StateDefinition,
  type StateOf,
  type UpdateOf,
} from "../state/state-definition.js";
import type { StateEngine } from "../state/state-engine.js";
import type { GraphTopology } from "../topology/graph-topology.js";
import { updateThread } from "./thread-update.js";

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
  /**
   * How much the checkpoints after a full state + frontier snapshot may weigh, as a multiple
   * of the snapshot's own checkpoint, before the next checkpoint holds a snapshot again
   * (default {@link DEFAULT_SNAPSHOT_RATIO}, estimated JSON bytes). Reading a thread then
   * parses less than `1 + snapshotRatio` snapshots' worth of bytes, and snapshots add at
   * most `1 / snapshotRatio` to what the thread's changes store. `0` makes every checkpoint
   * a snapshot; `Infinity` leaves snapshots to `snapshotEvery` (and a thread's first).
   */
  snapshotRatio?: number;
  /**
   * At most this many checkpoints from one snapshot to the next, whatever they weigh
   * (default: no limit). Worth setting only for a saver whose cost per checkpoint read
   * outweighs its cost per byte.
   */
  snapshotEvery?: number;
}

/** Threads whose newest state a compiled graph keeps materialised for `getState`. */
export const LATEST_STATE_CACHE_THREADS = 256;

/** A graph's shape, for drawing it: see {@link CompiledGraph.drawing}. */
export interface GraphDrawing {
  /** START, every node in the order it was added, and END, by name. */
  readonly nodes: readonly { readonly id: string }[];
  /**
   * Every edge. A conditional edge is drawn to each target its router may choose: the
   * declared ones, or every node and END when the router declared none.
   */
  readonly edges: readonly {
    readonly source: string;
    readonly target: string;
    readonly conditional: boolean;
  }[];
}

/** Options of {@link CompiledGraph.updateState}. */
export interface UpdateStateOptions {
  /**
   * Write the update as this node (a node of the graph): validated and merged as its update
   * would be, and the thread then moves on as if it had just ended: its edges (routers on the
   * updated state) decide the nodes that run next, and a question it was waiting on is
   * dropped. Without it, the update comes from outside the graph and the nodes that run next
   * stay as they were.
   */
  asNode?: string;
}

/** Options of {@link CompiledGraph.getStateHistory}. */
export interface StateHistoryOptions {
  /** At most this many snapshots, newest first. */
  limit?: number;
}

// Set once, by the class's static block: how `FlowStateGraph.compile` builds a compiled graph.
let compiledGraph: <D extends StateDefinition>(
  definition: D,
  topology: GraphTopology,
  options: CompileOptions,
) => CompiledGraph<D>;

/** What `invoke` and `stream` take: an update to start a run with, an answer, or `null`. */
export type GraphInput<D extends StateDefinition> = UpdateOf<D> | Resume | ResumeByIds | null;

/**
 * A runnable graph, made by `FlowStateGraph.compile`. Each `invoke` or `stream` works on one
 * thread (`configurable.thread_id`, default `"1"`): new input starts a run on top of the
 * thread's saved state, `null` input resumes the thread's failed or cancelled run without
 * re-running finished nodes, and `resume(answer)` (or `resumeByIds({ [id]: answer })`)
 * answers a run paused by a node's `context.interrupt`.
 */
export class CompiledGraph<D extends StateDefinition = StateDefinition> {
  /** The state the graph runs over. */
  readonly definition: D;
  /** Where checkpoints go, if anywhere. */
  readonly checkpointer: Checkpointer | undefined;
  readonly #engine: StateEngine;
  readonly #topology: GraphTopology;
  readonly #stepLimit: number;
  readonly #logger: Logger;
  readonly #snapshotPolicy: SnapshotPolicy;
  /**
   * The newest state read per thread, least recently read first. An entry only answers while
   * its checkpoint is still the thread's newest in the saver, so another writer's checkpoint
   * (another graph, another process) is never masked: it just makes the entry stale.
   */
  readonly #latestPoints = new Map<string, ThreadPoint>();

  static {
    compiledGraph = (definition, topology, options) =>
      new CompiledGraph(definition, topology, options);
  }

  // Built by `FlowStateGraph.compile` only: the topology it takes is the package's own.
  private constructor(definition: D, topology: GraphTopology, options: CompileOptions) {
    this.definition = definition;
    this.#engine = engineOf(definition);
    this.#topology = topology;
    this.checkpointer = options.checkpointer;
    this.#stepLimit = options.stepLimit ?? DEFAULT_STEP_LIMIT;
    this.#logger = options.logger ?? getDefaultLogger();
    this.#snapshotPolicy = snapshotPolicyOf(options);
  }

  /**
   * Runs the graph to the end and returns the final state. A run paused by
   * `context.interrupt` resolves too, with the state so far; `getState()` then shows
   * `status: "interrupted"` and the questions.
   *
   * @throws NodeExecutionError, StateValidationError, StateConflictError, StepLimitError,
   *   GraphValidationError (a router returned an unknown node), AbortedError (cancelled, or
   *   drained by `drainSignal`), NotInterruptedError (`resume(...)` for a thread that waits
   *   for no answer), or InterruptNotFoundError (`resumeByIds` naming no pending interrupt).
   */
  async invoke(input: GraphInput<D>, config: GraphConfig = {}): Promise<StateOf<D>> {
    const run = await this.#createRun(input, config, () => {});
    return (await run.execute()) as StateOf<D>;
  }

  /**
   * Runs the graph, yielding node start and end events as they happen (with what nodes send
   * through `context.agentEvent` and `context.writer` in between) and a final `done` event
   * with the full state, or `interrupt` events (and no `done`) when a node paused the run.
   * Leaving the loop early cancels the run (resumable later).
   */
  async *stream(
    input: GraphInput<D>,
    config: GraphConfig = {},
  ): AsyncGenerator<GraphEvent<StateOf<D>, UpdateOf<D>>> {
    const channel = new EventChannel<GraphEvent>();
    const run = await this.#createRun(input, config, (event) => channel.push(event));
    const outcome = run.execute().then(
      (state) => {
        if (!run.interrupted) channel.push({ type: "done", state });
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
   * The thread's current state (or its state at `configurable.checkpoint_id`): full values,
   * the nodes that run next, and the run status. Reads the checkpoints from the newest snapshot
   * at or before it, less than `1 + snapshotRatio` snapshots' worth of bytes.
   *
   * @throws ConfigurationError when the graph was compiled without a checkpointer.
   * @throws CheckpointNotFoundError when `checkpoint_id` is not a checkpoint of the thread.
   */
  async getState(config: GraphConfig = {}): Promise<StateSnapshot<StateOf<D>>> {
    const threadId = threadIdOf(config);
    const checkpointer = this.#requireCheckpointer();
    const reader = new ThreadReader(checkpointer, threadId, this.#engine);
    const from = await this.#requestedCheckpoint(config);
    const point = from
      ? await reader.at(from)
      : await this.#latestPoint(threadId, reader, await checkpointer.getLatest(threadId));
    return toStateSnapshot(threadId, point, this.#engine.initialValues());
  }

  /**
   * Changes the thread's state from outside a run, as a person correcting an agent's work
   * would: writes a new checkpoint whose state is the thread's (at `configurable.checkpoint_id`
   * when given, which forks the thread from there; else its newest) with `update` validated
   * and merged through the state's reducers, as node `options.asNode`'s update would be. The
   * checkpoint has source `update`; the thread's newest state is then the updated one.
   *
   * Without `asNode`, the nodes that run next, the status and the questions waiting stay as
   * they were: an interrupted thread stays interrupted and its interrupts keep their ids. With
   * it, the thread moves on as if that node had just ended: its edges decide what runs next
   * (`invoke(null)` runs it), and its own question, if it asked one, is dropped. Returns the
   * new checkpoint as `getState` reports checkpoints.
   *
   * @throws ConfigurationError when the graph was compiled without a checkpointer.
   * @throws CheckpointNotFoundError when `checkpoint_id` is not a checkpoint of the thread.
   * @throws UnknownNodeError when `asNode` is not a node of the graph.
   * @throws StateValidationError when the update does not fit the state (nothing is written).
   * @throws CheckpointConflictError when a run wrote the thread meanwhile.
   */
  async updateState(
    config: GraphConfig,
    update: UpdateOf<D> | null,
    options: UpdateStateOptions = {},
  ): Promise<StateCheckpoint> {
    const threadId = threadIdOf(config);
    const checkpointer = this.#requireCheckpointer();
    const reader = new ThreadReader(checkpointer, threadId, this.#engine);
    const latest = await checkpointer.getLatest(threadId);
    const requested = await this.#requestedCheckpoint(config);
    const point = requested
      ? await reader.at(requested)
      : await this.#latestPoint(threadId, reader, latest);
    const written = await updateThread({
      engine: this.#engine,
      topology: this.#topology,
      checkpointer,
      snapshotPolicy: this.#snapshotPolicy,
      config,
      threadId,
      latest,
      point,
      update,
      asNode: options.asNode,
    });
    return stateCheckpointOf(written);
  }

  /**
   * The state at `latest`, the thread's newest checkpoint: from the cache when the cached
   * point is that very checkpoint (same id and seq); else folded (on from the cached point
   * when the log still holds it, so polling a growing thread reads only what is new) and
   * cached. Cached points
   * are deep-frozen, so what one caller is given cannot change what the next one reads.
   */
  async #latestPoint(
    threadId: string,
    reader: ThreadReader,
    latest: StoredCheckpoint | undefined,
  ): Promise<ThreadPoint | undefined> {
    if (!latest) {
      this.#latestPoints.delete(threadId);
      return undefined;
    }
    const cached = this.#latestPoints.get(threadId);
    this.#latestPoints.delete(threadId);
    const point =
      cached?.checkpoint.id === latest.id && cached.checkpoint.seq === latest.seq
        ? cached
        : deepFreeze(await reader.at(latest, cached));
    this.#latestPoints.set(threadId, point);
    if (this.#latestPoints.size > LATEST_STATE_CACHE_THREADS) {
      this.#latestPoints.delete(this.#latestPoints.keys().next().value!);
    }
    return point;
  }

  /**
   * Every saved state of the thread, newest first (from `configurable.checkpoint_id` when
   * given), streamed: one snapshot interval of checkpoints is read at a time, and about the
   * square root of its length in states is held.
   *
   * @throws ConfigurationError when the graph was compiled without a checkpointer.
   * @throws CheckpointNotFoundError when `checkpoint_id` is not a checkpoint of the thread.
   */
  async *getStateHistory(
    config: GraphConfig = {},
    options: StateHistoryOptions = {},
  ): AsyncGenerator<StateSnapshot<StateOf<D>>> {
    const threadId = threadIdOf(config);
    const reader = new ThreadReader(this.#requireCheckpointer(), threadId, this.#engine);
    const from = await this.#requestedCheckpoint(config);
    const initial = this.#engine.initialValues();
    let remaining = options.limit ?? Number.POSITIVE_INFINITY;
    if (remaining <= 0) return;
    for await (const point of reader.history(from)) {
      yield toStateSnapshot(threadId, point, initial);
      if (--remaining <= 0) return;
    }
  }

  /** The checkpoint `configurable.checkpoint_id` names, if it names one. */
  async #requestedCheckpoint(config: GraphConfig): Promise<StoredCheckpoint | undefined> {
    const checkpointId = config.configurable?.checkpoint_id;
    if (checkpointId === undefined) return undefined;
    const threadId = threadIdOf(config);
    const checkpoint = await this.#requireCheckpointer().get(threadId, checkpointId);
    if (!checkpoint) throw new CheckpointNotFoundError({ threadId, checkpointId });
    return checkpoint;
  }

  /**
   * The same graph (nodes, edges, limits, snapshot policy) saving its checkpoints to
   * `checkpointer`: how a server keeps the threads of every graph it is given in its own
   * store. This graph is left as it is.
   */
  withCheckpointer(checkpointer: Checkpointer): CompiledGraph<D> {
    return new CompiledGraph(this.definition, this.#topology, {
      checkpointer,
      stepLimit: this.#stepLimit,
      logger: this.#logger,
      snapshotRatio: this.#snapshotPolicy.ratio,
      snapshotEvery: this.#snapshotPolicy.every,
    });
  }

  /** The graph's shape: START, its nodes and END, and the edges between them. */
  drawing(): GraphDrawing {
    const names = [...this.#topology.nodes.keys()];
    const edges: { source: string; target: string; conditional: boolean }[] = [];
    for (const source of [START_NAME, ...names]) {
      for (const target of this.#topology.staticTargets(source)) {
        edges.push({ source, target, conditional: false });
      }
      for (const branch of this.#topology.branches(source)) {
        for (const target of branch.targets ?? [...names, END_NAME]) {
          edges.push({ source, target, conditional: true });
        }
      }
    }
    return { nodes: [START_NAME, ...names, END_NAME].map((id) => ({ id })), edges };
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
    const { checkpointer } = this;
    let latest: StoredCheckpoint | undefined;
    let point: ThreadPoint | undefined;
    if (checkpointer) {
      const reader = new ThreadReader(checkpointer, threadId, this.#engine);
      latest = await checkpointer.getLatest(threadId);
      const requested = await this.#requestedCheckpoint(config);
      const from = requested ?? latest;
      point = from ? await reader.at(from) : undefined;
    }
    const base = point?.checkpoint;
    let start: RunStart = { kind: "new", input };
    let answers: Readonly<Record<string, readonly unknown[]>> = {};
    const answering = isResume(input) || isResumeByIds(input);
    if (answering) {
      if (base?.status !== "interrupted") {
        throw new NotInterruptedError({ threadId, status: base?.status ?? "new" });
      }
      answers = answersAfterResume(base, answersById(threadId, base, input));
    } else if (input === null && base) {
      // A stopped run's nodes get back the answers they had, so none is asked twice.
      answers = answersAfterResume(base);
    }
    if ((input === null || answering) && base) {
      start =
        base.status === "done"
          ? { kind: "idle" }
          : { kind: "resume", frontier: frontierOf(point!) };
    }
    return new GraphRun({
      engine: this.#engine,
      topology: this.#topology,
      checkpointer,
      logger: this.#logger,
      config,
      threadId,
      stepLimit: config.stepLimit ?? this.#stepLimit,
      snapshotPolicy: this.#snapshotPolicy,
      state: point?.values ?? this.#engine.initialValues(),
      position: positionAfter(latest, base),
      runId: start.kind === "resume" ? base!.runId : (config.configurable?.run_id ?? randomUUID()),
      start,
      answers,
      emit,
    });
  }
}

/**
 * The answers `input` gives, by interrupt id: `resume`'s to the first question `base` waits
 * on, `resumeByIds`'s as named.
 *
 * @throws InterruptNotFoundError when `resumeByIds` names no id, or one `base` does not wait on.
 */
function answersById(
  threadId: string,
  base: StoredCheckpoint,
  input: Resume | ResumeByIds,
): ReadonlyMap<string, unknown> {
  const pending = pendingInterrupts(base);
  if (isResume(input)) return new Map(pending.slice(0, 1).map(({ id }) => [id, input.value]));
  const pendingIds = pending.map(({ id }) => id);
  const named = Object.keys(input.answers);
  const unknown = named.filter((id) => !pendingIds.includes(id));
  if (named.length === 0 || unknown.length > 0) {
    throw new InterruptNotFoundError({ threadId, interruptIds: unknown, pendingIds });
  }
  return new Map(Object.entries(input.answers));
}

/** The snapshot policy the compile options ask for. */
function snapshotPolicyOf(options: CompileOptions): SnapshotPolicy {
  const ratio = options.snapshotRatio ?? DEFAULT_SNAPSHOT_RATIO;
  if (Number.isNaN(ratio) || ratio < 0) {
    throw new ConfigurationError({
      setting: "snapshotRatio",
      message: `snapshotRatio must be a number of at least 0, got ${String(ratio)}`,
    });
  }
  const every = options.snapshotEvery ?? Number.POSITIVE_INFINITY;
  if (!(Number.isSafeInteger(every) || every === Number.POSITIVE_INFINITY) || every < 1) {
    throw new ConfigurationError({
      setting: "snapshotEvery",
      message: `snapshotEvery must be a whole number of at least 1, got ${String(every)}`,
    });
  }
  return { ratio, every };
}

/**
 * The runnable graph of a checked topology: what `FlowStateGraph.compile` returns.
 *
 * @throws ConfigurationError when `snapshotRatio` is not a number of at least 0, or
 *   `snapshotEvery` not a whole number of at least 1 (or `Infinity`).
 */
export function compileGraph<D extends StateDefinition>(
  definition: D,
  topology: GraphTopology,
  options: CompileOptions,
): CompiledGraph<D> {
  return compiledGraph(definition, topology, options);
}
