import { createHash } from "node:crypto";
import { AbortedError, type Logger } from "@framework/core";
import type {
  CheckpointError,
  CheckpointFrontier,
  PendingInterrupt,
  RunStatus,
} from "../checkpoint/checkpoint.js";
import {
  type CheckpointStep,
  CheckpointWriter,
  type LogPosition,
} from "../checkpoint/checkpoint-format.js";
import type { Checkpointer } from "../checkpoint/checkpointer.js";
import { interruptId } from "../checkpoint/interrupt-id.js";
import type { SnapshotPolicy } from "../checkpoint/snapshot-policy.js";
import { checkpointMetadataOf, type GraphConfig } from "../config/graph-config.js";
import { NodeExecutionError } from "../error/node-execution-error.js";
import { NodeInterrupt } from "../error/node-interrupt.js";
import { describeStateMutation, StateMutationError } from "../error/state-mutation-error.js";
import { StepLimitError } from "../error/step-limit-error.js";
import { START_NAME } from "../node/endpoints.js";
import type { NodeContext } from "../node/graph-node.js";
import { deepFreeze } from "../state/deep-freeze.js";
import type { StagedUpdate, StateDraft, StateEngine, StateRecord } from "../state/state-engine.js";
import { GraphRunTrace } from "../telemetry/graph-tracing.js";
import type { GraphTopology } from "../topology/graph-topology.js";
import { routeFrom } from "../topology/route-from.js";
import { Frontier } from "./frontier.js";
import type { GraphEvent } from "./graph-event.js";
import { interruptFunction } from "./interrupt.js";
import { WriteGuard } from "./write-guard.js";

/** How a run begins: from START with input, from a stopped run's frontier, or with no work. */
export type RunStart =
  | { readonly kind: "new"; readonly input: unknown }
  | { readonly kind: "resume"; readonly frontier: CheckpointFrontier }
  | { readonly kind: "idle" };

/** Everything a run needs; built by the compiled graph for each invocation. */
export interface GraphRunOptions {
  /** Validates and merges the updates of the graph's state. */
  readonly engine: StateEngine;
  readonly topology: GraphTopology;
  readonly checkpointer: Checkpointer | undefined;
  readonly logger: Logger;
  readonly config: GraphConfig;
  readonly threadId: string;
  readonly stepLimit: number;
  /** When a checkpoint also holds a snapshot. */
  readonly snapshotPolicy: SnapshotPolicy;
  /** The thread's state when the run begins. */
  readonly state: StateRecord;
  /** Where the run's checkpoints go on the thread's log. */
  readonly position: LogPosition;
  /** The run's id: kept from the stopped run on resume. */
  readonly runId: string;
  readonly start: RunStart;
  /** Answers for nodes of an interrupted run, handed to their `context.interrupt` calls. */
  readonly answers: Readonly<Record<string, readonly unknown[]>>;
  readonly emit: (event: GraphEvent) => void;
}

/** A node visit's key: JSON keeps the parts apart whatever characters they hold. */
function idempotencyKey(threadId: string, runId: string, node: string, visit: number): string {
  return createHash("sha256")
    .update(JSON.stringify([threadId, runId, node, visit]))
    .digest("hex");
}

/** A node's `context.agentEvent`. */
function agentEventSender(
  emit: (event: GraphEvent) => void,
  node: string,
): NodeContext["agentEvent"] {
  return (event) => emit({ type: "agent", node, event });
}

/** A node's `context.writer`. */
function customEventSender(emit: (event: GraphEvent) => void, node: string): NodeContext["writer"] {
  return (data) => emit({ type: "custom", node, data });
}

/**
 * One invocation of a compiled graph: the event-driven scheduler. Node ends are handled one
 * at a time on an internal queue (merge, route, checkpoint, start what became ready), while
 * the nodes themselves run concurrently.
 */
export class GraphRun {
  readonly #options: GraphRunOptions;
  readonly #frontier: Frontier;
  readonly #guard = new WriteGuard();
  readonly #controller = new AbortController();
  readonly #result: Promise<StateRecord>;
  readonly #trace: GraphRunTrace;
  #resolve!: (state: StateRecord) => void;
  #reject!: (error: unknown) => void;
  /** The run's state; read through `engine.read`, which copies held-back appends in. */
  readonly #state: StateDraft;
  #queue: Promise<void> = Promise.resolve();
  #steps = 0;
  #finished = false;
  /** Appends the run's checkpoints; none without a checkpointer. */
  readonly #writer: CheckpointWriter | undefined;
  /** Nodes launched whose run has not settled yet. */
  #inFlight = 0;
  /** Questions asked by `context.interrupt` in this run; once any, no node starts. */
  readonly #interrupts: PendingInterrupt[] = [];
  /** `config.drainSignal` fired: no node starts, the run stops once the running ones end. */
  #draining = false;
  /** Answers of the nodes that have not finished since they were interrupted. */
  readonly #answers: Map<string, readonly unknown[]>;

  constructor(options: GraphRunOptions) {
    this.#options = options;
    this.#state = options.engine.draft(options.state);
    const { start, position, checkpointer } = options;
    this.#frontier = new Frontier(options.topology, {
      ...(start.kind === "resume" ? { saved: start.frontier } : {}),
      recordDelta: checkpointer !== undefined,
    });
    this.#answers = new Map(Object.entries(options.answers));
    this.#writer =
      checkpointer &&
      new CheckpointWriter({
        checkpointer,
        threadId: options.threadId,
        runId: options.runId,
        metadata: checkpointMetadataOf(options.config),
        policy: options.snapshotPolicy,
        // A resumed run requeues the running nodes, which a delta cannot say: start on a snapshot.
        position: start.kind === "resume" ? { ...position, snapshot: undefined } : position,
      });
    this.#result = new Promise<StateRecord>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#trace = new GraphRunTrace(options);
    this.#trace.endWith(this.#result);
  }

  /** Runs the graph; resolves with the final state, rejects with the error that stopped it. */
  execute(): Promise<StateRecord> {
    const { signal } = this.#options.config;
    if (signal?.aborted) {
      this.#finished = true;
      this.#reject(new AbortedError({ operation: this.#operation(), cause: signal.reason }));
      return this.#result;
    }
    signal?.addEventListener("abort", this.#onAbort, { once: true });
    const { drainSignal } = this.#options.config;
    this.#draining = drainSignal?.aborted ?? false;
    drainSignal?.addEventListener("abort", this.#onDrain, { once: true });
    this.#enqueue(() => this.#begin());
    return this.#result;
  }

  /** Whether the run paused on an interrupt (instead of finishing). */
  get interrupted(): boolean {
    return this.#interrupts.length > 0;
  }

  /** Cancels the run as an abort of the config's signal would. */
  cancel(reason: unknown): void {
    // A stream's end cancels its run whether or not the run already ended; an error (with its
    // secret redaction) is only worth building for a run that is still going.
    if (this.#finished) return;
    this.#stop(new AbortedError({ operation: this.#operation(), cause: reason }), "cancelled");
  }

  readonly #onAbort = (): void => {
    this.cancel(this.#options.config.signal?.reason);
  };

  /** Starts no node any more; once none runs, the run stops (behind any node end queued). */
  readonly #onDrain = (): void => {
    this.#draining = true;
    this.#enqueue(() => this.#advance());
  };

  #operation(): string {
    return `graph run on thread "${this.#options.threadId}"`;
  }

  #enqueue(task: () => Promise<void> | void): void {
    this.#queue = this.#queue.then(task).catch((error: unknown) => this.#stop(error, "failed"));
  }

  async #begin(): Promise<void> {
    const { start } = this.#options;
    if (start.kind === "idle") {
      this.#succeed();
      return;
    }
    if (start.kind === "new") {
      // Nothing has run yet: a bad input or a failing START router leaves the thread as it was.
      let writes: StateRecord;
      try {
        const staged = this.#options.engine.stage(this.#state, start.input, START_NAME);
        const targets = await this.#mergeRouted(START_NAME, staged);
        writes = staged.writes;
        for (const target of targets) this.#frontier.trigger(target);
      } catch (error) {
        this.#finished = true;
        this.#detach();
        this.#reject(error);
        return;
      }
      const status: RunStatus = this.#frontier.idle ? "done" : "running";
      await this.#checkpoint({ source: "input", writes, status });
    }
    this.#advance();
  }

  async #complete(name: string, step: number, startedAt: number, update: unknown): Promise<void> {
    // The run already stopped: this node is among the pending ones of the stop checkpoint.
    if (this.#finished) return;
    const { engine } = this.#options;
    const staged = engine.stage(this.#state, update, name);
    const lastValueKeys = Object.keys(staged.writes).filter((key) => engine.isLastValue(key));
    this.#guard.check(name, startedAt, lastValueKeys);
    const targets = await this.#mergeRouted(name, staged);
    this.#guard.record(name, this.#guard.tick(), lastValueKeys);
    this.#frontier.finish(name, targets);
    this.#answers.delete(name);
    const status: RunStatus = this.#frontier.idle ? "done" : "running";
    await this.#checkpoint({ source: "node", node: name, writes: staged.writes, status });
    this.#options.emit({ type: "node_end", node: name, step, update: staged.writes });
    this.#options.logger.debug(`Graph node ${name} ended (step ${step})`);
    this.#advance();
  }

  #advance(): void {
    if (this.#finished) return;
    if (this.interrupted) {
      if (this.#inFlight === 0) this.#enqueue(() => this.#pause());
      return;
    }
    if (this.#frontier.idle) {
      this.#succeed();
      return;
    }
    if (this.#draining) {
      if (this.#inFlight === 0) {
        const cause = this.#options.config.drainSignal?.reason;
        this.#stop(new AbortedError({ operation: this.#operation(), cause }), "cancelled");
      }
      return;
    }
    for (let name = this.#frontier.nextReady(); name; name = this.#frontier.nextReady()) {
      if (this.#steps >= this.#options.stepLimit) {
        const { stepLimit: limit } = this.#options;
        const next = this.#frontier.waiting;
        this.#stop(new StepLimitError({ limit, state: this.#values(), next }), "failed");
        return;
      }
      this.#launch(name);
    }
  }

  #launch(name: string): void {
    const node = this.#options.topology.nodes.get(name)!;
    const startedAt = this.#guard.tick();
    const visit = this.#frontier.start(name);
    this.#steps += 1;
    const step = this.#steps;
    this.#options.emit({ type: "node_start", node: name, step, visit });
    this.#options.logger.debug(`Graph node ${name} started (step ${step}, visit ${visit})`);
    const answers = this.#answers.get(name) ?? [];
    const context: NodeContext = {
      signal: this.#controller.signal,
      config: this.#options.config,
      nodeName: name,
      step,
      visit,
      idempotencyKey: idempotencyKey(this.#options.threadId, this.#options.runId, name, visit),
      logger: this.#options.logger,
      // Made by functions, not written here: the bundle keeps function names, and naming two
      // closures per node (a defineProperty each) cost a 5,000-node fan-out about 8% of its CPU.
      agentEvent: agentEventSender(this.#options.emit, name),
      writer: customEventSender(this.#options.emit, name),
      interrupt: interruptFunction(answers),
    };
    this.#inFlight += 1;
    // Deeply frozen, so a node can change the state only through the update it returns.
    const snapshot = deepFreeze(this.#values());
    const traced = () =>
      this.#trace.node(name, context, () => node.run(snapshot as never, context));
    new Promise((resolve) => resolve(traced())).then(
      (update) =>
        this.#enqueue(() => {
          this.#inFlight -= 1;
          return this.#complete(name, step, startedAt, update);
        }),
      (thrown: unknown) =>
        this.#enqueue(() => {
          this.#inFlight -= 1;
          if (NodeInterrupt.isInstance(thrown)) {
            // The node's answers all returned, so it asked the question after them.
            const { threadId, runId } = this.#options;
            const id = interruptId(threadId, runId, name, visit, answers.length);
            return this.#interrupt({ id, node: name, value: thrown.value });
          }
          const cause = this.#asMutation(name, snapshot, thrown) ?? thrown;
          if (!this.#finished) this.#stop(new NodeExecutionError({ node: name, cause }), "failed");
        }),
    );
  }

  /** A node asked a question: it stays running in the frontier, so a resume starts it again. */
  #interrupt(interrupt: PendingInterrupt): void {
    if (this.#finished) return;
    this.#interrupts.push(interrupt);
    this.#options.emit({ type: "interrupt", ...interrupt });
    this.#options.logger.debug(`Graph node ${interrupt.node} interrupted the run`);
    this.#advance();
  }

  /** Every node has settled after an interrupt: save the questions and resolve with the state. */
  async #pause(): Promise<void> {
    if (this.#finished) return;
    await this.#checkpoint({
      source: "stop",
      writes: {},
      status: "interrupted",
      interrupts: this.#interrupts,
      ...this.#unfinishedAnswers(),
    });
    this.#succeed();
  }

  /**
   * The answers of nodes that have not finished since they got them, for a stop checkpoint:
   * a run continued from it hands them back, so no question is asked twice.
   */
  #unfinishedAnswers(): { answers?: Readonly<Record<string, readonly unknown[]>> } {
    return this.#answers.size > 0 ? { answers: Object.fromEntries(this.#answers) } : {};
  }

  /** The engine's error for a write to the frozen state, as a {@link StateMutationError}. */
  #asMutation(node: string, state: StateRecord, error: unknown): StateMutationError | undefined {
    const mutation = describeStateMutation(error, state, this.#options.engine.keys);
    return mutation && new StateMutationError({ node, ...mutation, cause: error });
  }

  #values(): StateRecord {
    return this.#options.engine.read(this.#state);
  }

  /**
   * Routes from `source` on the state `staged` leads to, then merges it, and returns the
   * nodes to trigger (END is none): a router that throws leaves the state as it was. Only routers read the state, so a node with static
   * edges alone merges without building it, and its appends stay held back.
   */
  async #mergeRouted(source: string, staged: StagedUpdate): Promise<string[]> {
    const { engine, topology, config } = this.#options;
    let merged: StateRecord | undefined;
    // The state's closure is written inline: the bundle keeps function names, and a named
    // closure per node end costs a defineProperty each.
    const targets = await routeFrom(
      topology,
      source,
      () => {
        merged ??= engine.readStaged(this.#state, staged);
        return merged;
      },
      { signal: this.#controller.signal, config },
    );
    engine.commit(this.#state, staged, merged);
    return targets;
  }

  #succeed(): void {
    this.#finished = true;
    this.#detach();
    this.#resolve(this.#values());
  }

  /**
   * Stops the run: running nodes see the abort at once; the stop checkpoint is written after
   * any node end already being handled, so it holds that node's writes, and the run rejects.
   */
  #stop(error: unknown, status: "failed" | "cancelled"): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#detach();
    this.#controller.abort(error);
    const node =
      NodeExecutionError.isInstance(error) && error.phase === "node" ? error.node : undefined;
    const described: CheckpointError = {
      name: error instanceof Error ? error.name : "Error",
      message: error instanceof Error ? error.message : String(error),
      ...(node === undefined ? {} : { node }),
    };
    this.#queue = this.#queue
      .then(() =>
        this.#checkpoint({
          source: "stop",
          writes: {},
          status,
          error: described,
          ...(node ? { node } : {}),
          ...this.#unfinishedAnswers(),
        }),
      )
      .catch((checkpointError: unknown) => {
        const reason =
          checkpointError instanceof Error ? checkpointError.message : String(checkpointError);
        this.#options.logger.error(
          `Could not save the ${status} state of thread "${this.#options.threadId}": ${reason}`,
        );
      })
      .then(() => this.#reject(error));
  }

  #detach(): void {
    this.#options.config.signal?.removeEventListener("abort", this.#onAbort);
    this.#options.config.drainSignal?.removeEventListener("abort", this.#onDrain);
  }

  /** Saves the checkpoint of one step, if the graph has a checkpointer. */
  async #checkpoint(step: CheckpointStep): Promise<void> {
    if (!this.#writer) return;
    await this.#writer.write(step, this.#frontier.takeDelta(), () => ({
      values: this.#values(),
      frontier: this.#frontier.snapshot(),
    }));
  }
}
