import { randomUUID } from "node:crypto";
import { type Logger, silentLogger } from "@framework/core";
import { EventChannel } from "@framework/core/internal";
import type { StateRecord } from "@framework/graph";
import { RunCancelledError } from "./error/run-cancelled-error.js";
import { RunFailedError } from "./error/run-failed-error.js";
import { RunNotFoundError } from "./error/run-not-found-error.js";
import { RunNotResumableError } from "./error/run-not-resumable-error.js";
import { RunTimeoutError } from "./error/run-timeout-error.js";
import { ThreadBusyError } from "./error/thread-busy-error.js";
import { checkpointerOf } from "./internal/checkpointer-option.js";
import { RunJobs } from "./internal/run-jobs.js";
import { RunNotifications } from "./internal/run-notifications.js";
import { RunStore, runEventPage } from "./internal/run-store.js";
import { type CrewQueueConnection, DEFAULT_QUEUE_NAME } from "./queue-connection.js";
import type { RunEvent } from "./run/run-event.js";
import { finalStatuses, type RunInput, type RunRecord, type RunStatus } from "./run/run-record.js";
import type { SweepResult } from "./run/sweep-result.js";

/** Options of {@link CrewQueue}: the {@link CrewQueueConnection} and the retries of its jobs. */
export type CrewQueueOptions = CrewQueueConnection & {
  /**
   * How often BullMQ runs a job whose worker failed for a reason that may pass (Postgres or
   * Redis unreachable), with exponential backoff from `retryBackoffMs`. Default 5.
   */
  jobAttempts?: number;
  /** The first retry's delay. Default 1000. */
  retryBackoffMs?: number;
};

/** Options of {@link CrewQueue.submit}. */
export interface SubmitOptions {
  /**
   * What to do when the thread already has an active run: `"reject"` throws
   * `ThreadBusyError` (the default), `"queue"` runs this one after it (and after any run
   * queued before).
   */
  ifBusy?: "reject" | "queue";
  /**
   * The run's id (default: a new UUID). Submitting an id that exists returns that run and
   * adds nothing, so a client may retry a submit safely.
   */
  runId?: string;
}

/** A submitted run. */
export interface SubmittedRun {
  readonly runId: string;
  readonly threadId: string;
  /** `pending` (a worker takes it) or `queued` (behind the thread's active run). */
  readonly status: RunStatus;
}

/** Options of {@link CrewQueue.result}. */
export interface ResultOptions {
  /** Give up waiting after this long with `RunTimeoutError` (the run goes on). Default: wait. */
  timeoutMs?: number;
}

/** Options of {@link CrewQueue.events}. */
export interface EventsOptions {
  /**
   * Replay the run's logged events after this sequence number (`seq`; 0 for all), then
   * follow live: each event once, in order, none missed. Without it, the run's status now,
   * then the events from the moment of the call.
   */
  after?: number;
}

/** Jobs and runs, for dashboards and autoscaling. */
export interface QueueStats {
  /** BullMQ's job counts: `waiting`, `active`, `delayed`, … */
  readonly jobs: Readonly<Record<string, number>>;
  /** Runs per status, from Postgres. */
  readonly runs: Readonly<Partial<Record<RunStatus, number>>>;
}

/** The status event describing where `run` stands now, as its row says. */
function currentStatus(run: RunRecord): Extract<RunEvent, { type: "status" }> {
  const at = finalStatuses.has(run.status)
    ? (run.finishedAt ?? run.createdAt)
    : run.status === "running"
      ? (run.startedAt ?? run.createdAt)
      : run.createdAt;
  return {
    type: "status",
    runId: run.runId,
    status: run.status,
    at: at.toISOString(),
    ...(run.status === "running" && run.worker !== undefined
      ? { worker: run.worker, attempt: run.attempts }
      : {}),
  };
}

/**
 * The API side of crews run by workers: submits runs, waits for their results, follows their
 * events, cancels and resumes them. Runs live in Postgres (`crew_runs`, beside the
 * checkpoints); a BullMQ job (id `run-<runId>`) wakes a {@link CrewWorker} to run one.
 *
 * @example
 * const queue = new CrewQueue({ connection: { url: REDIS_URL }, checkpointer: new PostgresSaver({ connectionString }) });
 * const run = await queue.submit("advisory", { query, userId: "alice", threadId: "7" });
 * const state = await queue.result(run.runId, { timeoutMs: 60_000 });
 */
export class CrewQueue {
  /** The BullMQ queue's name. */
  readonly name: string;
  readonly #jobs: RunJobs;
  readonly #store: RunStore;
  readonly #notifications: RunNotifications;
  readonly #logger: Logger;

  /**
   * @throws ConfigurationError when no `checkpointer` is given, or it is not a
   *   `PostgresSaver`.
   */
  constructor(options: CrewQueueOptions) {
    this.name = options.queueName ?? DEFAULT_QUEUE_NAME;
    this.#logger = options.logger ?? silentLogger;
    this.#store = new RunStore(checkpointerOf(options, "CrewQueue"));
    this.#jobs = new RunJobs({
      name: this.name,
      connection: options.connection,
      store: this.#store,
      logger: this.#logger,
      attempts: options.jobAttempts ?? 5,
      backoffMs: options.retryBackoffMs ?? 1_000,
    });
    this.#notifications = new RunNotifications(this.#store, this.#logger);
  }

  /**
   * Records a run of `crew` in Postgres and wakes a worker for it. One thread runs one run at
   * a time: a busy thread throws `ThreadBusyError`, or with `{ ifBusy: "queue" }` the run
   * waits (status `queued`) and starts when the runs before it end.
   */
  async submit(crew: string, input: RunInput, options: SubmitOptions = {}): Promise<SubmittedRun> {
    const runId = options.runId ?? randomUUID();
    const threadId = String(input.threadId ?? randomUUID());
    const run = { runId, threadId, crew, input: { ...input, threadId } };
    if (await this.#store.insert(run, "pending")) {
      await this.#jobs.add(runId);
      this.#logger.info(`crew-queue: run ${runId} of ${crew} submitted on thread "${threadId}"`);
      return { runId, threadId, status: "pending" };
    }
    const existing = await this.#store.get(runId);
    if (existing) {
      if (existing.status === "pending" || existing.status === "running") {
        await this.#jobs.add(runId);
      }
      return { runId, threadId: existing.threadId, status: existing.status };
    }
    if (options.ifBusy !== "queue") {
      const activeRunId = await this.#store.activeRunOf(threadId);
      throw new ThreadBusyError({ threadId, ...(activeRunId ? { activeRunId } : {}) });
    }
    if (!(await this.#store.insert(run, "queued"))) return this.submit(crew, input, options);
    this.#logger.info(`crew-queue: run ${runId} of ${crew} queued on busy thread "${threadId}"`);
    const promoted = await this.#jobs.startNext(threadId);
    return { runId, threadId, status: promoted === runId ? "pending" : "queued" };
  }

  /** The run as Postgres records it. @throws RunNotFoundError */
  async get(runId: string): Promise<RunRecord> {
    const run = await this.#store.get(runId);
    if (!run) throw new RunNotFoundError({ runId });
    return run;
  }

  /**
   * Waits for the run to end and returns its final state.
   *
   * @throws RunFailedError, RunCancelledError, RunNotFoundError, or RunTimeoutError when
   *   `timeoutMs` passed first (the run goes on).
   */
  async result(runId: string, options: ResultOptions = {}): Promise<StateRecord> {
    const run = await this.#untilFinal(runId, options.timeoutMs);
    if (run.status === "done") return run.result as StateRecord;
    if (run.status === "cancelled") {
      throw new RunCancelledError({ runId, threadId: run.threadId });
    }
    throw new RunFailedError({ runId, threadId: run.threadId, error: run.error ?? "unknown" });
  }

  /**
   * The run's events as they happen: first its status now (so a follower that subscribes
   * after a worker took the run still learns which worker holds it), then node starts and
   * ends (on whichever worker holds it) and status changes, each status once, ending after
   * the final status. Node events before the call are not replayed; a run already over
   * yields its final status only.
   *
   * With `after`, the run's logged events after that sequence number instead, then the
   * following ones as they commit, each once and in order, ending after the final status: a
   * follower that lost its connection resumes from the last `seq` it saw.
   *
   * @throws RunNotFoundError
   */
  events(runId: string, options: EventsOptions = {}): AsyncGenerator<RunEvent> {
    return options.after === undefined
      ? this.#liveEvents(runId)
      : this.#loggedEvents(runId, options.after);
  }

  async *#loggedEvents(runId: string, after: number): AsyncGenerator<RunEvent> {
    const channel = new EventChannel<RunEvent>();
    let cursor = after;
    let ended = false;
    const deliver = (event: RunEvent) => {
      if (ended || event.seq === undefined || event.seq <= cursor) return;
      cursor = event.seq;
      channel.push(event);
      if (event.type === "status" && finalStatuses.has(event.status)) {
        ended = true;
        channel.close();
      }
    };
    // Reads the log from the cursor; once the run's row says it is over, reads once more
    // (its final status commits with that event) and ends.
    const catchUp = async () => {
      for (let over = false; !ended; ) {
        const events = await this.#store.eventsAfter(runId, cursor);
        for (const event of events) deliver(event);
        if (events.length === runEventPage) continue;
        if (over) {
          // A run that ended before its events were logged has no final event to end on.
          ended = true;
          channel.close();
          return;
        }
        const run = await this.#store.get(runId);
        if (!run) {
          ended = true;
          channel.close({ error: new RunNotFoundError({ runId }) });
          return;
        }
        if (!finalStatuses.has(run.status)) return;
        over = true;
      }
    };
    // One step at a time, in the order the notices came, so events go out in order.
    let steps = Promise.resolve();
    const step = (work: () => Promise<void> | void) => {
      steps = steps.then(work).catch((error: unknown) => {
        ended = true;
        channel.close({ error });
      });
    };
    const unsubscribe = await this.#notifications.subscribe(runId, (notice) => {
      if (notice === "reconnected") return step(catchUp);
      if (notice.type === "cancel" || notice.seq === undefined) return;
      const seq = notice.seq;
      // The next one is told as it comes; after a gap (notices missed), the log fills it.
      step(() => (seq === cursor + 1 ? deliver(notice) : seq > cursor ? catchUp() : undefined));
    });
    try {
      step(catchUp);
      yield* channel;
    } finally {
      unsubscribe();
    }
  }

  async *#liveEvents(runId: string): AsyncGenerator<RunEvent> {
    const channel = new EventChannel<RunEvent>();
    // A status is told once, whether the subscription or the first read of the row saw it first.
    const told = new Set<string>();
    const tell = (event: Extract<RunEvent, { type: "status" }>) => {
      const key = `${event.status}:${event.attempt ?? ""}`;
      if (told.has(key)) return;
      told.add(key);
      channel.push(event);
      if (finalStatuses.has(event.status)) channel.close();
    };
    const check = async () => {
      const run = await this.#store.get(runId);
      if (!run) return channel.close({ error: new RunNotFoundError({ runId }) });
      tell(currentStatus(run));
    };
    const unsubscribe = await this.#notifications.subscribe(runId, (notice) => {
      if (notice === "reconnected") {
        void check().catch((error: unknown) => channel.close({ error }));
      } else if (notice.type === "status") {
        tell(notice);
      } else if (notice.type !== "cancel") {
        channel.push(notice);
      }
    });
    try {
      await check();
      yield* channel;
    } finally {
      unsubscribe();
    }
  }

  /**
   * Cancels the run from any process: a run no worker holds ends `cancelled` at once; a
   * running one is stopped by its worker through the nodes' signals, its state checkpointed.
   * Either way `resume(runId)` continues it later. Returns the status after the request
   * (`running` until the worker has stopped it), or the final status of a run already over.
   *
   * @throws RunNotFoundError
   */
  async cancel(runId: string): Promise<RunStatus> {
    const asked = await this.#store.requestCancel(runId);
    if (!asked) return (await this.get(runId)).status;
    this.#logger.info(`crew-queue: cancel of run ${runId} on thread "${asked.threadId}" requested`);
    if (asked.status === "cancelled") {
      await this.#jobs.remove(runId);
      await this.#jobs.startNext(asked.threadId);
    }
    return asked.status;
  }

  /**
   * Continues a cancelled or failed run from its last checkpoint, on any worker, without
   * re-running its finished nodes.
   *
   * @throws RunNotResumableError (the run is not cancelled or failed), ThreadBusyError (its
   *   thread has another active run now), RunNotFoundError.
   */
  async resume(runId: string): Promise<void> {
    let reopened: boolean;
    try {
      reopened = await this.#store.reopen(runId);
    } catch (error) {
      if (!RunStore.isThreadBusy(error)) throw error;
      const run = await this.get(runId);
      const activeRunId = await this.#store.activeRunOf(run.threadId);
      throw new ThreadBusyError({
        threadId: run.threadId,
        ...(activeRunId ? { activeRunId } : {}),
      });
    }
    if (!reopened) {
      throw new RunNotResumableError({ runId, status: (await this.get(runId)).status });
    }
    await this.#jobs.remove(runId);
    await this.#jobs.add(runId);
  }

  /**
   * Makes Redis agree with Postgres: adds the job of every active run that has none (Redis
   * was flushed or restarted) and starts queued runs whose thread was left free. Workers run
   * it every `sweepIntervalMs`; safe to run anywhere, any time (job ids are deterministic).
   */
  sweep(): Promise<SweepResult> {
    return this.#jobs.sweep();
  }

  /** Job counts from BullMQ and run counts from Postgres. */
  async stats(): Promise<QueueStats> {
    const [jobs, runs] = await Promise.all([this.#jobs.counts(), this.#store.countByStatus()]);
    return { jobs, runs };
  }

  /**
   * Closes the Redis connection and the `LISTEN` connection (the checkpointer is the
   * caller's).
   */
  async close(): Promise<void> {
    await this.#notifications.close();
    await this.#jobs.close();
  }

  async #untilFinal(runId: string, timeoutMs: number | undefined): Promise<RunRecord> {
    let settle!: (run: RunRecord) => void;
    let fail!: (error: unknown) => void;
    const settled = new Promise<RunRecord>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    // The timeout may fire while the first check is still out: awaited below, not unhandled.
    settled.catch(() => undefined);
    let last: RunStatus = "pending";
    const check = async () => {
      const run = await this.#store.get(runId);
      if (!run) return fail(new RunNotFoundError({ runId }));
      last = run.status;
      if (finalStatuses.has(run.status)) settle(run);
    };
    const unsubscribe = await this.#notifications.subscribe(runId, (notice) => {
      if (
        notice === "reconnected" ||
        (notice.type === "status" && finalStatuses.has(notice.status))
      ) {
        check().catch(fail);
      }
    });
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => fail(new RunTimeoutError({ runId, timeoutMs, status: last })),
            timeoutMs,
          );
    try {
      await check();
      return await settled;
    } finally {
      clearTimeout(timer);
      unsubscribe();
    }
  }
}
