import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { Logger } from "@framework/core";
import {
  CheckpointConflictError,
  type Checkpointer,
  resume,
  resumeByIds,
  type StateCheckpoint,
  StateValidationError,
  UnknownNodeError,
} from "@framework/graph";
import type { AssistantRegistry } from "../assistant/assistant-registry.js";
import type { ServedAssistant } from "../assistant/served-assistant.js";
import { NothingToResumeError } from "../error/nothing-to-resume-error.js";
import { RequestValidationError } from "../error/request-validation-error.js";
import { ResourceNotFoundError } from "../error/resource-not-found-error.js";
import { ThreadBusyConflictError } from "../error/thread-busy-conflict-error.js";
import { ThreadWithoutAssistantError } from "../error/thread-without-assistant-error.js";
import type { RunQuotas } from "../quota/run-quotas.js";
import type {
  CancelAction,
  RunInsertion,
  RunRecord,
  RunStart,
  RunStatus,
  ServerStore,
  ThreadRecord,
  ThreadStatus,
} from "../store/server-store.js";
import { executeRun, type RunOutcome, runFailure } from "./execute-run.js";
import { replayUnloggedUpdates } from "./replay-unlogged.js";
import type { RunCreation } from "./run-creation.js";
import type { RunDispatcher } from "./run-dispatcher.js";
import type { RunEnd } from "./run-end.js";
import type { RunEventLog } from "./run-event-log.js";
import type { RunObserver } from "./run-observer.js";
import { readThreadState } from "./thread-state.js";
import { isAnswerMap, type WireInterrupt } from "./wire-interrupt.js";

/** A request to change a thread's state (`POST /threads/{id}/state`), in the server's terms. */
export interface ThreadStateUpdate {
  /** The update, in the wire's form (an agent's `messages` as clients send them). */
  readonly values: unknown;
  /** Write it as this node of the graph (the protocol's `as_node`). */
  readonly asNode?: string;
  /** Update the thread as it stood at this checkpoint (a fork), instead of its current state. */
  readonly checkpointId?: string;
}

/** Options of {@link RunManager}. */
export interface RunManagerOptions {
  readonly store: ServerStore;
  readonly log: RunEventLog;
  readonly assistants: AssistantRegistry;
  readonly checkpointer: Checkpointer;
  readonly logger: Logger;
  /** Decides whether a run may be created as asked (its webhook URL); throws to refuse it. */
  readonly admit?: (creation: RunCreation) => void;
  /** Per-user limits the store holds run insertions to. */
  readonly quotas?: RunQuotas;
  /** Hear the runs' lives: the webhooks, the metrics. */
  readonly observers?: readonly RunObserver[];
  /**
   * Runs execute elsewhere: created runs, and the unfinished ones {@link RunManager.recover}
   * finds, wake a worker through it instead of executing here. A worker's own manager has one
   * too (its sweep wakes the pool), and executes what it is woken for with
   * {@link RunManager.executeThread}.
   */
  readonly dispatcher?: RunDispatcher;
}

const terminalStatuses = new Set<RunStatus>(["success", "error", "timeout", "interrupted"]);

/** Whether a run has ended. */
export function isRunFinished(run: RunRecord): boolean {
  return terminalStatuses.has(run.status);
}

/** A run executing in this process, and the waiters of its end. */
interface ExpectedEnd {
  readonly threadId: string;
  readonly promise: Promise<RunEnd | undefined | "unknown">;
  readonly resolve: (end: RunEnd | undefined | "unknown") => void;
}

/**
 * Why a run's signal was aborted: a stop asked for, the server shutting down, or the thread's
 * lease lost with the shared store's connection (the run stays `running` for whichever process
 * leases the thread next).
 */
class RunStop {
  constructor(readonly kind: "cancel" | "shutdown" | "lost") {}
}

interface ThreadSlot {
  /** The run executing now, if any, and its end. */
  runId: string | undefined;
  /** Its owner, to read it back when another process asks it to stop. */
  owner: string | undefined;
  /** The thread's lease went with the shared store's connection: start no further run. */
  lost: boolean;
  /**
   * A run was scheduled while this slot was draining: the drain reads the thread's pending
   * runs again before it ends, even if its last read found none (the run may have been
   * stored after that read).
   */
  rescan: boolean;
  current: Promise<void>;
  controller: AbortController;
  /** The end of the thread's whole queue. */
  done: Promise<void>;
}

/** A slot for a thread nothing runs on yet. */
function newSlot(): ThreadSlot {
  return {
    runId: undefined,
    owner: undefined,
    lost: false,
    rescan: false,
    current: Promise.resolve(),
    controller: new AbortController(),
    done: Promise.resolve(),
  };
}

/**
 * Creates, schedules, executes, cancels and recovers runs. Runs of one thread execute one at
 * a time, oldest first; runs of different threads run concurrently. Everything a run needs is
 * in the store, so a run left unfinished by a crash is picked up by {@link recover}.
 *
 * Over a store shared by several processes (one with `leaseThread`), a thread's runs execute
 * in the process holding its lease; the others hear of changes through `watchRuns`, and a stop
 * asked for anywhere reaches the process executing the run.
 */
export class RunManager {
  readonly #store: ServerStore;
  readonly #log: RunEventLog;
  readonly #assistants: AssistantRegistry;
  readonly #checkpointer: Checkpointer;
  readonly #logger: Logger;
  readonly #admit: RunManagerOptions["admit"];
  readonly #quotas: RunQuotas | undefined;
  readonly #observers: readonly RunObserver[];
  readonly #dispatcher: RunDispatcher | undefined;
  readonly #threads = new Map<string, ThreadSlot>();
  /**
   * The ends of the runs this process created or picked up, so that a waiter learns the end
   * (and the values) from the process that executed the run instead of reading them back.
   */
  readonly #ends = new Map<string, ExpectedEnd>();
  /** Fired by {@link close}: executing runs start no new node and stop at a checkpoint. */
  readonly #shutdown = new AbortController();
  #closing = false;
  #unwatch: (() => void) | undefined;
  /** The recovery under way: one at a time, since this process's leases are reentrant. */
  #recovering: Promise<void> = Promise.resolve();

  constructor(options: RunManagerOptions) {
    this.#store = options.store;
    this.#log = options.log;
    this.#assistants = options.assistants;
    this.#checkpointer = options.checkpointer;
    this.#logger = options.logger;
    this.#admit = options.admit;
    this.#quotas = options.quotas;
    this.#observers = options.observers ?? [];
    this.#dispatcher = options.dispatcher;
  }

  /**
   * Creates a run on `owner`'s thread `threadId` (or on a new thread of its own when
   * `threadId` is undefined) and schedules it.
   *
   * @throws ResourceNotFoundError for an unknown assistant or thread, RequestValidationError
   *   for input the graph's state refuses, ThreadBusyConflictError for a busy thread with the
   *   `reject` strategy, NothingToResumeError for a resume on a thread that waits for nothing.
   */
  async create(
    owner: string,
    threadId: string | undefined,
    creation: RunCreation,
  ): Promise<RunRecord> {
    const assistant = this.#assistant(creation.assistantId);
    const thread = await this.#threadFor(owner, threadId, creation);
    if (thread.assistantId !== null && thread.assistantId !== assistant.assistantId) {
      throw new RequestValidationError({
        issues: [
          {
            path: ["assistant_id"],
            message: `Thread ${thread.threadId} holds the state of another assistant's graph`,
          },
        ],
      });
    }
    let input: unknown = null;
    let byIds = false;
    if (creation.resume !== undefined) {
      const resumed = await this.#resumeOf(owner, thread, assistant, creation.resume);
      if ("repeated" in resumed) return resumed.repeated;
      byIds = isAnswerMap(creation.resume, resumed.pending);
    } else if (creation.input !== undefined && creation.input !== null) {
      input = assistant.graphInput(creation.input);
    }
    this.#admit?.(creation);
    const runId = randomUUID();
    const slot = this.#slotAtInsert(thread.threadId, runId, owner);
    const { run, inflight, overLimit } = await this.#insert(
      {
        runId,
        threadId: thread.threadId,
        assistantId: assistant.assistantId,
        owner,
        status: "pending",
        metadata: creation.metadata ?? {},
        multitaskStrategy: creation.multitaskStrategy,
        request: {
          input,
          ...(creation.resume === undefined ? {} : { resume: creation.resume }),
          ...(byIds ? { resumeByIds: true } : {}),
          config: creation.config ?? {},
          streamMode: creation.streamMode,
          onDisconnect: creation.onDisconnect,
          checkpointId: creation.checkpointId ?? null,
          temporary: threadId === undefined && creation.onCompletion !== "keep",
          ...(creation.webhook === undefined ? {} : { webhook: creation.webhook }),
        },
        error: null,
        attempt: 1,
        checkpointBefore: null,
        cancel: null,
      },
      slot,
    );
    if (overLimit && this.#quotas) throw this.#quotas.exceeded(overLimit);
    if (run && !this.#dispatcher) this.#expectEnd(run.runId, run.threadId);
    if (!run) {
      throw new ThreadBusyConflictError({
        threadId: thread.threadId,
        activeRunIds: inflight.map((other) => other.runId),
      });
    }
    if (creation.multitaskStrategy === "interrupt" || creation.multitaskStrategy === "rollback") {
      for (const other of inflight) await this.#stop(other, creation.multitaskStrategy);
    }
    if (!slot) {
      this.#schedule(thread.threadId, run);
    } else if (run.status === "running") {
      this.#drainSlot(thread.threadId, slot, false, run);
    } else {
      // Stored pending behind inflight runs: the drain takes them in order.
      slot.runId = undefined;
      slot.owner = undefined;
      this.#drainSlot(thread.threadId, slot, false);
    }
    return run;
  }

  /**
   * Stores a new run, within the quotas; with the thread's slot taken at insert
   * ({@link #slotAtInsert}), started if its thread is free. The slot is given back when no run
   * was stored.
   */
  async #insert(
    run: Omit<RunRecord, "createdAt" | "updatedAt">,
    slot: ThreadSlot | undefined,
  ): Promise<RunInsertion> {
    try {
      const start: RunStart | undefined = slot && {
        checkpointBefore: (await this.#checkpointer.getLatest(run.threadId))?.id ?? null,
      };
      const insertion = await this.#store.insertRun(run, this.#quotas?.limits, start);
      if (slot && !insertion.run) this.#freeSlot(run.threadId, slot);
      return insertion;
    } catch (error) {
      if (slot) this.#freeSlot(run.threadId, slot);
      throw error;
    }
  }

  /**
   * A run created on a thread nothing executes or drains here, executed here over a store no
   * other process shares, is stored started ({@link RunStart}): one write fewer than storing
   * it pending and starting it. The thread's slot is taken before anything is awaited, so a
   * run created meanwhile queues behind it and a state update waits; and it names the run, so
   * a stop asked for before the run executes (an `interrupt` run created meanwhile) aborts its
   * signal, which the run executes with.
   */
  #slotAtInsert(threadId: string, runId: string, owner: string): ThreadSlot | undefined {
    if (this.#dispatcher || this.#store.leaseThread || this.#closing) return undefined;
    if (this.#threads.has(threadId)) return undefined;
    const slot = newSlot();
    slot.runId = runId;
    slot.owner = owner;
    this.#threads.set(threadId, slot);
    return slot;
  }

  /** Gives up a slot taken at insert that has no run to execute. */
  #freeSlot(threadId: string, slot: ThreadSlot): void {
    if (this.#threads.get(threadId) === slot) this.#threads.delete(threadId);
    // A run scheduled meanwhile found the slot taken and left its run to it.
    if (slot.rescan) this.#start(threadId);
  }

  /**
   * Stops `owner`'s run: `interrupt` keeps what it did (its status becomes `interrupted`),
   * `rollback` deletes the run and returns its thread to where it stood before the run.
   * A run that already ended is left as it is.
   *
   * @throws ResourceNotFoundError when the run is not `owner`'s run of that thread.
   */
  async cancel(
    owner: string,
    threadId: string,
    runId: string,
    action: CancelAction,
  ): Promise<void> {
    const run = await this.#store.getRun(owner, runId, threadId);
    if (!run) throw new ResourceNotFoundError({ resource: "run", id: runId });
    if (!isRunFinished(run)) await this.#stop(run, action);
  }

  /**
   * Deletes `owner`'s thread: stops its unfinished runs, then deletes its runs, their events
   * and its checkpoints.
   *
   * @throws ResourceNotFoundError when `owner` has no such thread.
   */
  async deleteThread(owner: string, threadId: string): Promise<void> {
    const thread = await this.#store.getThread(owner, threadId);
    if (!thread) throw new ResourceNotFoundError({ resource: "thread", id: threadId });
    for (const run of await this.#store.listRuns(owner, threadId, { limit: 1000, offset: 0 })) {
      if (!isRunFinished(run)) await this.#stop(run, "interrupt");
    }
    await this.#store.deleteThread(owner, threadId);
    await this.#checkpointer.deleteThread(threadId);
  }

  /**
   * Waits for `owner`'s run to end and returns it, with the values it ended with when this
   * process executed it; `undefined` once it no longer exists (rolled back, or its thread
   * deleted). `signal` gives up waiting, not the run.
   */
  async waitFor(owner: string, runId: string, signal: AbortSignal): Promise<RunEnd | undefined> {
    const expected = this.#ends.get(runId);
    if (expected) {
      const given = new Promise<"unknown">((resolve) => {
        if (signal.aborted) resolve("unknown");
        signal.addEventListener("abort", () => resolve("unknown"), { once: true });
      });
      const end = await Promise.race([expected.promise, given]);
      if (end === undefined) return undefined;
      if (end !== "unknown" && end.run.owner === owner) return end;
    }
    const follower = this.#log.follow(runId);
    try {
      for (;;) {
        const run = await this.#store.getRun(owner, runId);
        if (!run) return undefined;
        if (isRunFinished(run) || signal.aborted) return { run };
        await follower.next(signal, 30_000);
      }
    } finally {
      follower.close();
    }
  }

  #expectEnd(runId: string, threadId: string): void {
    let resolve!: ExpectedEnd["resolve"];
    const promise = new Promise<RunEnd | undefined | "unknown">((done) => {
      resolve = done;
    });
    this.#ends.set(runId, { threadId, promise, resolve });
  }

  #ended(runId: string, end: RunEnd | undefined | "unknown"): void {
    this.#ends.get(runId)?.resolve(end);
    this.#ends.delete(runId);
  }

  /**
   * Forgets what is older than `retentionMs`: the events of runs that ended before, and the
   * temporary threads of thread-less runs (with their checkpoints).
   */
  async trim(retentionMs: number): Promise<void> {
    const before = new Date(Date.now() - retentionMs).toISOString();
    await this.#store.trimEvents(before);
    for (const { threadId, owner } of await this.#store.expiredTemporaryThreads(before)) {
      await this.#store.deleteThread(owner, threadId);
      await this.#checkpointer.deleteThread(threadId);
    }
  }

  /**
   * Starts: over a shared store, follows the changes other processes make to runs; then picks
   * up what a stopped server left ({@link recover}).
   */
  async start(): Promise<void> {
    if (this.#store.watchRuns) {
      this.#unwatch = await this.#store.watchRuns({
        changed: (runId, kind) => {
          this.#log.notify(runId);
          if (kind === "run") void this.#stopIfAsked(runId);
        },
        lost: () => {
          this.#log.notifyAll();
          for (const slot of this.#threads.values()) {
            slot.lost = true;
            slot.controller.abort(new RunStop("lost"));
          }
        },
        resumed: () => {
          this.#log.notifyAll();
          this.recover().catch((error: unknown) =>
            this.#logger.error(`Resuming runs failed: ${runFailure(error).message}`),
          );
        },
      });
    }
    await this.recover();
  }

  /**
   * Picks up what a stopped server left: runs still marked running continue from their last
   * checkpoint, pending runs start in order. Over a shared store, only the threads no live
   * process holds are picked up (those of a process that died), so calling it again now and
   * then is how runs of a dead process go on.
   */
  recover(): Promise<void> {
    const next = this.#recovering.then(() => this.#recoverUnfinished());
    this.#recovering = next.catch(() => {});
    return next;
  }

  async #recoverUnfinished(): Promise<void> {
    const threads = new Map<string, RunRecord[]>();
    for (const run of await this.#store.unfinishedRuns()) {
      threads.set(run.threadId, [...(threads.get(run.threadId) ?? []), run]);
    }
    for (const [threadId, unfinished] of threads) {
      if (this.#closing || this.#threads.has(threadId)) continue;
      if (this.#dispatcher) {
        // Whoever executes the thread now takes the wake-up as a no-op; a dead one's runs go on.
        // One not sent is sent by the next sweep.
        await this.#dispatcher
          .wake(unfinished[0]!)
          .catch((error: unknown) =>
            this.#logger.warn(
              `Waking a worker for thread ${threadId} failed: ${runFailure(error).message}`,
            ),
          );
        continue;
      }
      await this.#takeOver(threadId, unfinished);
    }
  }

  /**
   * Executes `threadId`'s unfinished runs here, as a worker woken for them does: takes the
   * thread's lease (unless a live process, this one included, holds it: then this returns at
   * once), continues a run left `running` from its last checkpoint, runs the pending ones in
   * order, and settles once the thread has nothing left to run here.
   */
  async executeThread(threadId: string): Promise<void> {
    // Executing here already: its drain reads the thread's pending runs before it ends.
    if (this.#closing || this.#threads.has(threadId)) return;
    const unfinished = await this.#store.unfinishedRuns(threadId);
    if (unfinished.length > 0 && !this.#threads.has(threadId)) {
      await this.#takeOver(threadId, unfinished);
    }
    await this.#threads.get(threadId)?.done;
  }

  /** Takes a thread's unfinished runs over, if its lease is free, and starts them. */
  async #takeOver(threadId: string, unfinished: readonly RunRecord[]): Promise<void> {
    if (!(await this.#lease(threadId))) return;
    if (this.#threads.has(threadId)) {
      // A run created here meanwhile started the thread's runs.
      await this.#release(threadId);
      return;
    }
    let pending = false;
    try {
      for (const seen of unfinished) {
        // Read again under the lease: the run may have ended since the list was read.
        const run = this.#store.leaseThread
          ? await this.#store.getRun(seen.owner, seen.runId)
          : seen;
        if (!run || isRunFinished(run)) continue;
        if (run.cancel) {
          await this.#finishStopped(run, run.cancel);
          continue;
        }
        if (run.status === "running") {
          await this.#store.updateRun(run.runId, {
            status: "pending",
            attempt: run.attempt + 1,
          });
        }
        if (!this.#ends.has(run.runId)) this.#expectEnd(run.runId, threadId);
        pending = true;
      }
    } catch (error) {
      await this.#release(threadId);
      throw error;
    }
    if (pending) this.#start(threadId, true);
    else await this.#release(threadId);
  }

  /**
   * Changes `owner`'s thread's state from outside a run, through the graph of the thread's
   * assistant (for a thread no assistant ran on yet, the one its `metadata.graph_id` names),
   * and returns the checkpoint written. Runs created meanwhile wait for it.
   *
   * @throws ResourceNotFoundError for an unknown thread or checkpoint, or an assistant no
   *   longer served; ThreadBusyConflictError while a run is pending or running on the thread;
   *   ThreadWithoutAssistantError when no assistant is known for it; RequestValidationError
   *   for values the state refuses or an `asNode` the graph does not have.
   */
  async updateState(
    owner: string,
    threadId: string,
    update: ThreadStateUpdate,
  ): Promise<StateCheckpoint> {
    const thread = await this.#store.getThread(owner, threadId);
    if (!thread) throw new ResourceNotFoundError({ resource: "thread", id: threadId });
    const active = (await this.#store.listRuns(owner, threadId, { limit: 100, offset: 0 })).filter(
      (run) => !isRunFinished(run),
    );
    const busy = () =>
      new ThreadBusyConflictError({ threadId, activeRunIds: active.map((run) => run.runId) });
    if (this.#closing || this.#threads.has(threadId) || active.length > 0) throw busy();
    const graphId = thread.metadata.graph_id;
    const named = thread.assistantId ?? (typeof graphId === "string" ? graphId : undefined);
    if (named === undefined) throw new ThreadWithoutAssistantError({ threadId });
    const assistant = this.#assistant(named);
    // Holding the thread's slot (and, over a shared store, its lease), so a run created now
    // waits instead of racing the update.
    const slot = newSlot();
    this.#threads.set(threadId, slot);
    let leased = false;
    try {
      leased = await this.#lease(threadId);
    } finally {
      if (!leased) {
        // Another process executes the thread's runs, including any created here meanwhile.
        this.#threads.delete(threadId);
        this.#schedule(threadId);
      }
    }
    if (!leased) throw busy();
    const written = this.#writeUpdate(owner, thread, assistant, update);
    slot.done = slot.current = written.then(
      () => {},
      () => {},
    );
    try {
      return await written;
    } finally {
      this.#threads.delete(threadId);
      await this.#release(threadId);
      this.#schedule(threadId);
    }
  }

  async #writeUpdate(
    owner: string,
    thread: ThreadRecord,
    assistant: ServedAssistant,
    update: ThreadStateUpdate,
  ): Promise<StateCheckpoint> {
    // No values writes nothing: with asNode, the update only moves the thread on.
    const values =
      update.values === undefined || update.values === null
        ? null
        : assistant.graphInput(update.values, "values");
    const at = update.checkpointId ?? thread.head ?? undefined;
    const configurable = { thread_id: thread.threadId, user_id: owner };
    let written: StateCheckpoint;
    try {
      written = await assistant.graph.updateState(
        {
          configurable: at === undefined ? configurable : { ...configurable, checkpoint_id: at },
          checkpointMetadata: { assistant_id: assistant.assistantId },
        },
        values as never,
        update.asNode === undefined ? {} : { asNode: update.asNode },
      );
    } catch (error) {
      throw updateFailure(error, thread.threadId);
    }
    if (thread.head) await this.#store.setThreadHead(thread.threadId, null);
    const { status } = await assistant.graph.getState({
      configurable: { thread_id: thread.threadId },
    });
    const threadStatus: ThreadStatus =
      status === "interrupted" ? "interrupted" : status === "failed" ? "error" : "idle";
    await this.#store.setThreadStatus(thread.threadId, threadStatus, assistant.assistantId);
    return written;
  }

  /**
   * Stops starting runs and drains the executing ones: they start no new node, and stop once
   * their running nodes have ended and been checkpointed. After `graceMs` whatever still runs
   * is stopped. Either way they stay `running` in the store, so the next start continues them
   * from their last checkpoint, without running again what ended before the shutdown.
   */
  async close(graceMs: number): Promise<void> {
    this.#closing = true;
    this.#unwatch?.();
    this.#shutdown.abort(new RunStop("shutdown"));
    const settled = Promise.all([...this.#threads.values()].map((slot) => slot.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    for (const slot of this.#threads.values()) slot.controller.abort(new RunStop("shutdown"));
    await settled;
    // Runs this process will not execute any more end elsewhere, or on the next start.
    for (const runId of [...this.#ends.keys()]) this.#ended(runId, "unknown");
  }

  #assistant(idOrName: string): ServedAssistant {
    const assistant = this.#assistants.find(idOrName);
    if (!assistant) throw new ResourceNotFoundError({ resource: "assistant", id: idOrName });
    return assistant;
  }

  async #threadFor(
    owner: string,
    threadId: string | undefined,
    creation: RunCreation,
  ): Promise<ThreadRecord> {
    if (threadId === undefined) {
      const created = await this.#store.createThread(
        {
          threadId: randomUUID(),
          owner,
          metadata: {},
          temporary: creation.onCompletion !== "keep",
        },
        { ifExists: "raise" },
      );
      if (created === "taken") throw new Error("A new thread id collided with an existing one");
      return created;
    }
    const thread = await this.#store.getThread(owner, threadId);
    if (thread) return thread;
    if (creation.ifNotExists === "create") {
      const created = await this.#store.createThread(
        { threadId, owner, metadata: {} },
        { ifExists: "do_nothing" },
      );
      if (created !== "taken") return created;
    }
    throw new ResourceNotFoundError({ resource: "thread", id: threadId });
  }

  /**
   * A resume that repeats the thread's latest run's resume returns that run (answering twice
   * is idempotent); otherwise the thread must wait on an interrupt, and the ones it waits on
   * are returned.
   *
   * @throws NothingToResumeError when it waits on none.
   */
  async #resumeOf(
    owner: string,
    thread: ThreadRecord,
    assistant: ServedAssistant,
    answer: unknown,
  ): Promise<{ repeated: RunRecord } | { pending: readonly WireInterrupt[] }> {
    const [latest] = await this.#store.listRuns(owner, thread.threadId, { limit: 1, offset: 0 });
    if (
      latest &&
      latest.request.resume !== undefined &&
      latest.status !== "error" &&
      isDeepStrictEqual(latest.request.resume, answer)
    ) {
      return { repeated: latest };
    }
    const state = await readThreadState(assistant, thread);
    if (state.interrupts.length === 0) {
      throw new NothingToResumeError({ threadId: thread.threadId, threadStatus: thread.status });
    }
    return { pending: state.interrupts };
  }

  async #stop(run: RunRecord, action: CancelAction): Promise<void> {
    await this.#store.updateRun(run.runId, { cancel: action });
    const slot = this.#threads.get(run.threadId);
    if (slot?.runId === run.runId) {
      slot.controller.abort(new RunStop("cancel"));
      await slot.current;
      return;
    }
    if (slot || !this.#store.leaseThread) {
      await this.#finishStopped(run, action);
      return;
    }
    // Over a shared store: with the thread's lease, nobody executes the run and it is stopped
    // here; otherwise the process holding it stops it when it hears of the request.
    if (await this.#lease(run.threadId)) {
      try {
        const current = await this.#store.getRun(run.owner, run.runId);
        if (current && !isRunFinished(current)) await this.#finishStopped(current, action);
      } finally {
        await this.#release(run.threadId);
      }
      this.#schedule(run.threadId);
      return;
    }
    const follower = this.#log.follow(run.runId);
    try {
      for (;;) {
        const current = await this.#store.getRun(run.owner, run.runId);
        if (!current || isRunFinished(current)) return;
        await follower.next(this.#shutdown.signal, 30_000);
        if (this.#shutdown.signal.aborted) return;
      }
    } finally {
      follower.close();
    }
  }

  /** A stop asked for by another process, of a run this one executes, is carried out. */
  async #stopIfAsked(runId: string): Promise<void> {
    const slot = [...this.#threads.values()].find((candidate) => candidate.runId === runId);
    if (!slot?.owner) return;
    try {
      const run = await this.#store.getRun(slot.owner, runId);
      if (run?.cancel && slot.runId === runId) slot.controller.abort(new RunStop("cancel"));
    } catch (error) {
      this.#logger.warn(`Reading run ${runId} after a change failed: ${runFailure(error).message}`);
    }
  }

  /** Takes the thread for this process: always, unless the store is shared by several. */
  async #lease(threadId: string): Promise<boolean> {
    return this.#store.leaseThread ? this.#store.leaseThread(threadId) : true;
  }

  async #release(threadId: string): Promise<void> {
    await this.#store.releaseThread?.(threadId);
  }

  /** Records a stopped run's end: `interrupted`, or gone with its thread rolled back. */
  async #finishStopped(run: RunRecord, action: CancelAction): Promise<void> {
    if (action === "rollback") {
      // The thread is back where it stood before the run goes, so whoever sees the run gone
      // (in any process) sees the thread rolled back; done twice after a crash, it is the same.
      if (run.status === "running" || run.attempt > 1) await this.#rollBack(run);
      await this.#store.deleteRun(run.runId);
      this.#ended(run.runId, undefined);
    } else {
      // A run that was running leaves its thread idle in the same step.
      const stopped = await this.#store.updateRun(
        run.runId,
        { status: "interrupted", cancel: null },
        run.status === "running" ? { thread: { status: "idle" } } : {},
      );
      this.#ended(run.runId, stopped && { run: stopped });
      if (stopped) this.#observe("runEnded", { run: stopped });
    }
    this.#log.notify(run.runId);
  }

  /** Returns the thread to where it stood before `run`. */
  async #rollBack(run: RunRecord): Promise<void> {
    if (run.checkpointBefore === null) {
      await this.#checkpointer.deleteThread(run.threadId);
      await this.#store.setThreadHead(run.threadId, null);
    } else {
      await this.#store.setThreadHead(run.threadId, run.checkpointBefore);
    }
    await this.#store.setThreadStatus(run.threadId, "idle");
  }

  /** The threads whose runs execute in this process now. */
  executingThreads(): string[] {
    return [...this.#threads.keys()];
  }

  /** The run executing on a thread now, if any: the studio files a run's spans by it. */
  executingRun(threadId: string): string | undefined {
    return this.#threads.get(threadId)?.runId;
  }

  /**
   * Has the thread's pending runs executed: here, or by a worker woken through the dispatcher
   * (for `created`, the run just created, or else the thread's next pending run).
   */
  #schedule(threadId: string, created?: RunRecord): void {
    if (!this.#dispatcher) {
      this.#start(threadId);
      return;
    }
    const dispatcher = this.#dispatcher;
    (async () => {
      const next = created ?? (await this.#store.nextPendingRun(threadId));
      if (next) await dispatcher.wake(next);
    })().catch((error: unknown) =>
      // The run waits in the store: a worker's recovery sweep wakes for it.
      this.#logger.warn(
        `Waking a worker for thread ${threadId} failed: ${runFailure(error).message}`,
      ),
    );
  }

  /**
   * Executes the thread's runs here, one after another, unless they are already being
   * executed here or, over a shared store, in the process holding the thread's lease.
   * `leased`: this process holds it already.
   */
  #start(threadId: string, leased = false): void {
    const draining = this.#threads.get(threadId);
    if (this.#closing || draining) {
      if (draining) draining.rescan = true;
      if (leased) void this.#release(threadId).catch(() => {});
      return;
    }
    this.#drainSlot(threadId, newSlot(), leased);
  }

  /**
   * Executes the thread's runs in `slot`: `started` first when given (a run stored `running`
   * at its insert), then its pending runs in order.
   */
  #drainSlot(threadId: string, slot: ThreadSlot, leased: boolean, started?: RunRecord): void {
    this.#threads.set(threadId, slot);
    slot.done = this.#drainLeased(threadId, slot, leased, started)
      .catch((error: unknown) => {
        this.#logger.error(`Runs of thread ${threadId} stopped: ${runFailure(error).message}`);
      })
      .finally(() => {
        if (this.#threads.get(threadId) === slot) this.#threads.delete(threadId);
      });
  }

  async #drainLeased(
    threadId: string,
    slot: ThreadSlot,
    leased: boolean,
    started: RunRecord | undefined,
  ): Promise<void> {
    for (let held = leased; ; held = false) {
      if (!held && !(await this.#lease(threadId))) {
        // Another process executes the thread's runs: their ends are heard from the store.
        for (const [runId, end] of [...this.#ends]) {
          if (end.threadId === threadId) this.#ended(runId, "unknown");
        }
        return;
      }
      try {
        await this.#drain(threadId, slot, started);
        started = undefined;
      } finally {
        await this.#release(threadId);
      }
      if (this.#closing || slot.lost) return;
      // A run created elsewhere while this process held the lease is found by the drain or,
      // once the lease is released, by this read.
      if (this.#store.leaseThread && (await this.#store.nextPendingRun(threadId))) continue;
      // Scheduled here since the drain's last read: it ends only with no such run, and frees
      // the thread at once, so a run scheduled from now on starts a drain of its own.
      if (!slot.rescan) {
        if (this.#threads.get(threadId) === slot) this.#threads.delete(threadId);
        return;
      }
    }
  }

  async #drain(threadId: string, slot: ThreadSlot, started?: RunRecord): Promise<void> {
    for (let first = started; !this.#closing && !slot.lost; first = undefined) {
      slot.rescan = false;
      const run = first ?? (await this.#store.nextPendingRun(threadId));
      if (!run) return;
      if (run.cancel) {
        await this.#finishStopped(run, run.cancel);
        continue;
      }
      slot.runId = run.runId;
      slot.owner = run.owner;
      // A run stored started has had the slot's signal since its insert.
      if (run !== first) slot.controller = new AbortController();
      // A run that failed to record its end is left for its waiters to read from the store.
      slot.current = this.#execute(run, slot).finally(() => this.#ended(run.runId, "unknown"));
      await slot.current;
      slot.runId = undefined;
      slot.owner = undefined;
    }
  }

  /** Executes `next`: a pending run, or one stored started. */
  async #execute(next: RunRecord, slot: ThreadSlot): Promise<void> {
    const { signal } = slot.controller;
    const assistant = this.#assistants.find(next.assistantId);
    const run = next.status === "running" ? next : await this.#markStarted(next);
    this.#log.notify(run.runId);
    this.#observe("runStarted", run);
    if (!assistant) {
      await this.#finish(run, {
        status: "error",
        values: {},
        error: {
          type: "ResourceNotFoundError",
          message: `Assistant ${run.assistantId} is no longer served`,
        },
        interrupts: [],
        events: [],
      });
      return;
    }
    if (run.attempt > 1) {
      await replayUnloggedUpdates(run, assistant, this.#checkpointer, this.#log).catch(
        (error: unknown) =>
          this.#logger.warn(
            `Looking for updates run ${run.runId} did not log failed: ${runFailure(error).message}`,
          ),
      );
    }
    let outcome: RunOutcome;
    try {
      outcome = await executeRun({
        run,
        assistant,
        log: this.#log,
        signal,
        drainSignal: this.#shutdown.signal,
        ...(await this.#startOf(run)),
      });
    } catch (error) {
      // executeRun rejects only when stopped: by `signal`, or else drained by close().
      const stop = signal.aborted ? signal.reason : this.#shutdown.signal.reason;
      if (stop instanceof RunStop && (stop.kind === "shutdown" || stop.kind === "lost")) {
        this.#ended(run.runId, "unknown");
        return;
      }
      const current = await this.#store.getRun(run.owner, run.runId);
      if (stop instanceof RunStop && current?.cancel) {
        await this.#finishStopped(current, current.cancel);
        return;
      }
      outcome = {
        status: "error",
        values: {},
        error: runFailure(error),
        interrupts: [],
        events: [],
      };
    }
    if (this.#store.holdsThread && !(await this.#store.holdsThread(run.threadId))) {
      // Paused past its lease (its checkpoints were refused): the process that took the
      // thread over executes the run again from its last checkpoint and records its end.
      this.#logger.warn(`Lost the lease of thread ${run.threadId}: run ${run.runId} left to it`);
      slot.lost = true;
      this.#ended(run.runId, "unknown");
      return;
    }
    await this.#finish(run, outcome);
  }

  /** Records a pending run's start, and its thread's. */
  async #markStarted(pending: RunRecord): Promise<RunRecord> {
    // Where a rollback returns to is where the thread stands as the run first starts, not as
    // it was created: a run enqueued behind another must not undo that one's work.
    const before =
      pending.attempt === 1
        ? { checkpointBefore: (await this.#checkpointer.getLatest(pending.threadId))?.id ?? null }
        : {};
    return (
      (await this.#store.updateRun(
        pending.runId,
        { status: "running", ...before },
        { thread: { status: "busy", assistantId: pending.assistantId } },
      )) ?? pending
    );
  }

  /** Where a run starts: its request on its first attempt, its last checkpoint after that. */
  async #startOf(run: RunRecord): Promise<{ input: unknown; checkpointId: string | null }> {
    const thread = await this.#store.getThread(run.owner, run.threadId);
    if (run.attempt > 1) {
      const latest = await this.#checkpointer.getLatest(run.threadId);
      // Checkpoints after the one the run started on are the run's own: continue them.
      if (latest && latest.id !== run.checkpointBefore) return { input: null, checkpointId: null };
    }
    if (thread?.head) await this.#store.setThreadHead(run.threadId, null);
    const checkpointId = run.request.checkpointId ?? thread?.head ?? null;
    const { request } = run;
    const input =
      request.resume === undefined
        ? request.input
        : request.resumeByIds
          ? resumeByIds(request.resume as Readonly<Record<string, unknown>>)
          : resume(request.resume);
    return { input, checkpointId };
  }

  async #finish(run: RunRecord, outcome: RunOutcome): Promise<void> {
    const threadStatus: ThreadStatus =
      outcome.status === "error"
        ? "error"
        : outcome.status === "interrupted"
          ? "interrupted"
          : "idle";
    const ended = await this.#store.updateRun(
      run.runId,
      { status: outcome.status, error: outcome.error },
      { thread: { status: threadStatus }, events: outcome.events },
    );
    this.#ended(run.runId, ended && { run: ended, values: outcome.values });
    if (ended) this.#observe("runEnded", { run: ended, values: outcome.values });
    this.#log.notify(run.runId);
  }

  /** Tells the observers; one that fails is logged, and the run goes on. */
  #observe<K extends keyof RunObserver>(
    event: K,
    subject: Parameters<NonNullable<RunObserver[K]>>[0],
  ): void {
    for (const observer of this.#observers) {
      try {
        (observer[event] as ((value: typeof subject) => void) | undefined)?.call(observer, subject);
      } catch (error) {
        this.#logger.warn(`A run observer failed on ${event}: ${runFailure(error).message}`);
      }
    }
  }
}

/** A failure of the graph's `updateState` as the client is answered. */
function updateFailure(error: unknown, threadId: string): unknown {
  if (StateValidationError.isInstance(error)) {
    return new RequestValidationError({
      issues: error.issues.map((message) => ({
        path: error.key === undefined ? ["values"] : ["values", error.key],
        message,
      })),
    });
  }
  if (UnknownNodeError.isInstance(error)) {
    return new RequestValidationError({
      issues: [{ path: ["as_node"], message: error.message }],
    });
  }
  // Another process wrote the thread meanwhile: it was busy after all.
  if (CheckpointConflictError.isInstance(error)) {
    return new ThreadBusyConflictError({ threadId, activeRunIds: [] });
  }
  return error;
}
