import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import {
  PostgresFencedError,
  type PostgresSaver,
  PostgresStatementTimeoutError,
  PostgresUnavailableError,
} from "@framework/checkpoint-postgres";
import { ConfigurationError, type Logger, silentLogger } from "@framework/core";
import type { Checkpointer, CompiledGraph, StateDefinition, StateRecord } from "@framework/graph";
import { type Job, WaitingError, Worker } from "bullmq";
import type { Crew, CrewFactory } from "./crew-factory.js";
import { LeaseLostError } from "./error/lease-lost-error.js";
import { UnknownCrewError } from "./error/unknown-crew-error.js";
import { checkpointerOf } from "./internal/checkpointer-option.js";
import { leaseCheckpointer } from "./internal/lease-checkpointer.js";
import { RunJobs } from "./internal/run-jobs.js";
import { RunNotifications } from "./internal/run-notifications.js";
import { RunStore } from "./internal/run-store.js";
import {
  type CrewQueueConnection,
  DEFAULT_QUEUE_NAME,
  type RunJobData,
} from "./queue-connection.js";
import type { RunInput, RunRecord } from "./run/run-record.js";

/** Options of {@link CrewWorker}: the {@link CrewQueueConnection}, its crews and its limits. */
export type CrewWorkerOptions = CrewQueueConnection & {
  /** The crews this worker runs, by the name `submit` gives. */
  crews: Readonly<Record<string, CrewFactory>>;
  /** Runs at once. Default 1. */
  concurrency?: number;
  /** Names this worker in the runs table, logs and checkpoint metadata. Default host:pid:random. */
  workerId?: string;
  /**
   * BullMQ's job lock: a worker that stops renewing it (killed, frozen) loses the run once it
   * expires, and the next stall check hands the run to another worker. Production: 30000
   * (BullMQ's default); tests use about 1000. Default 30000.
   */
  lockDurationMs?: number;
  /** How often this worker checks for stalled jobs. Default 30000 (tests: about 500). */
  stalledIntervalMs?: number;
  /** Takeovers of one run before BullMQ gives up on its job (the run then fails). Default 10. */
  maxStalledCount?: number;
  /**
   * A run taken this many times (first start, takeovers after crashes, retries) fails instead
   * of running again, so a run that kills every worker that takes it does not circle forever
   * (BullMQ failing its job after `maxStalledCount` would only hand it to the sweeper).
   * Default 20.
   */
  maxRunAttempts?: number;
  /** How often this worker sweeps (see `CrewQueue.sweep`); 0 never. Default 60000. */
  sweepIntervalMs?: number;
  /**
   * How long `close()` lets runs in flight finish before stopping them at a checkpoint and
   * giving them back to the queue. Default 10000.
   */
  drainTimeoutMs?: number;
  /**
   * Retries of the jobs this worker adds (queued runs it starts, runs it sweeps); a job's
   * retries are set by whoever adds it, see `CrewQueueOptions`.
   */
  jobAttempts?: number;
  /** The first retry's delay of the jobs this worker adds. */
  retryBackoffMs?: number;
};

/** Why a run's controller was aborted. */
const stopReasons = {
  cancel: new Error("the run was cancelled"),
  shutdown: new Error("the worker is closing"),
} as const;

/** Errors that may pass: BullMQ retries the job with backoff instead of failing the run. */
function isTransient(error: unknown): boolean {
  return (
    PostgresUnavailableError.isInstance(error) || PostgresStatementTimeoutError.isInstance(error)
  );
}

function leaseLost(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 8; depth += 1) {
    if (PostgresFencedError.isInstance(cause) || LeaseLostError.isInstance(cause)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function graphOf(crew: Crew): CompiledGraph<StateDefinition> {
  return "app" in crew ? crew.app : crew;
}

function inputOf(input: RunInput): Record<string, unknown> {
  if (input.input !== undefined) return { ...input.input };
  return { messages: { role: "user", content: input.query ?? "" } };
}

/**
 * A process's share of the crews' work: takes runs from the BullMQ queue (`concurrency` at
 * a time), leases each in Postgres (a new epoch fences every earlier holder's checkpoints),
 * runs it from the thread's last checkpoint with the crew its factory builds, and records
 * the outcome. Start any number of them, on any machine.
 *
 * @example
 * const worker = new CrewWorker({ connection, checkpointer, crews: { advisory: ({ checkpointer }) => buildCrew(checkpointer) }, concurrency: 4 });
 * await worker.start();
 * process.on("SIGTERM", () => void worker.close());
 */
export class CrewWorker {
  /** This worker's name in the runs table and the logs. */
  readonly id: string;
  readonly #options: CrewWorkerOptions;
  readonly #store: RunStore;
  readonly #jobs: RunJobs;
  readonly #notifications: RunNotifications;
  readonly #logger: Logger;
  /** The runs this worker holds, each with the controller that stops it. */
  readonly #holding = new Map<string, AbortController>();
  /** The lease epoch of each run this worker holds, which fences its checkpoints. */
  readonly #leases = new Map<string, number>();
  readonly #saver: PostgresSaver;
  /** The crews' checkpointer: the saver's, each put fenced by this worker's lease. */
  readonly #checkpointer: Checkpointer;
  readonly #crews = new Map<string, Promise<CompiledGraph<StateDefinition>>>();
  #worker: Worker<RunJobData> | undefined;
  #sweeper: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #closing: Promise<void> | undefined;

  /**
   * @throws ConfigurationError when `crews` is empty, a number is invalid, or no
   *   `checkpointer` is given.
   */
  constructor(options: CrewWorkerOptions) {
    if (Object.keys(options.crews).length === 0) {
      throw new ConfigurationError({ setting: "crews", message: "A CrewWorker needs a crew" });
    }
    for (const setting of [
      "concurrency",
      "lockDurationMs",
      "stalledIntervalMs",
      "maxStalledCount",
      "maxRunAttempts",
    ] as const) {
      const value = options[setting];
      if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
        throw new ConfigurationError({
          setting,
          message: `CrewWorker's ${setting} must be a whole number above 0, got ${value}`,
        });
      }
    }
    this.#options = options;
    this.id = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.#logger = options.logger ?? silentLogger;
    this.#saver = checkpointerOf(options, "CrewWorker");
    this.#store = new RunStore(this.#saver);
    this.#jobs = new RunJobs({
      name: options.queueName ?? DEFAULT_QUEUE_NAME,
      connection: options.connection,
      store: this.#store,
      logger: this.#logger,
      attempts: options.jobAttempts ?? 5,
      backoffMs: options.retryBackoffMs ?? 1_000,
    });
    this.#notifications = new RunNotifications(this.#store, this.#logger);
    this.#checkpointer = leaseCheckpointer(this.#saver, this.#leases);
  }

  /** The runs this worker holds now. */
  get running(): readonly string[] {
    return [...this.#holding.keys()];
  }

  /**
   * Connects (Postgres first: the runs table is created if missing), listens for cancels and
   * starts taking runs. Resolves once the worker is taking jobs.
   */
  async start(): Promise<void> {
    if (this.#worker) return;
    await this.#store.setup();
    this.#unsubscribe = await this.#notifications.subscribe("*", (notice) => {
      if (notice !== "reconnected" && notice.type === "cancel") {
        this.#holding.get(notice.runId)?.abort(stopReasons.cancel);
      }
    });
    const options = this.#options;
    const worker = new Worker<RunJobData>(
      options.queueName ?? DEFAULT_QUEUE_NAME,
      (job, token) => this.#process(job, token),
      {
        connection: options.connection,
        concurrency: options.concurrency ?? 1,
        lockDuration: options.lockDurationMs ?? 30_000,
        stalledInterval: options.stalledIntervalMs ?? 30_000,
        maxStalledCount: options.maxStalledCount ?? 10,
        name: this.id,
        autorun: false,
      },
    );
    worker.on("error", (error) =>
      this.#logger.warn(`crew-queue: worker ${this.id}: ${error.message}`),
    );
    // A run resumed while its job was finishing got no new job (the id was still taken).
    const requeueIfResumed = (runId: string) =>
      void this.#jobs
        .requeueIfJobless(runId)
        .catch((error: unknown) =>
          this.#logger.warn(`crew-queue: could not check run ${runId}'s job: ${describe(error)}`),
        );
    worker.on("completed", (job) => requeueIfResumed(job.data.runId));
    worker.on("failed", (job, error) => {
      if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
      // BullMQ gave up on the job (its retries or takeovers ran out): the run fails.
      void this.#store
        .fail(job.data.runId, describe(error))
        .then((threadId) => (threadId === undefined ? undefined : this.#jobs.startNext(threadId)))
        .catch((failure: unknown) =>
          this.#logger.error(
            `crew-queue: could not fail run ${job.data.runId}: ${describe(failure)}`,
          ),
        );
    });
    this.#worker = worker;
    void worker
      .run()
      .catch((error: unknown) =>
        this.#logger.error(`crew-queue: worker ${this.id} stopped: ${describe(error)}`),
      );
    await worker.waitUntilReady();
    const every = options.sweepIntervalMs ?? 60_000;
    if (every > 0) {
      this.#sweeper = setInterval(() => {
        this.#jobs
          .sweep()
          .catch((error: unknown) =>
            this.#logger.warn(`crew-queue: sweep failed: ${describe(error)}`),
          );
      }, every);
      this.#sweeper.unref();
    }
    this.#logger.info(`crew-queue: worker ${this.id} started`);
  }

  /**
   * Stops taking runs, lets the runs in flight finish for up to `drainTimeoutMs`, then stops
   * the rest at a checkpoint and gives their leases back (another worker resumes them), and
   * closes its connections. Call it on SIGTERM.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    clearInterval(this.#sweeper);
    const worker = this.#worker;
    if (worker) {
      const closed = worker.close();
      const drain = this.#options.drainTimeoutMs ?? 10_000;
      const timer = setTimeout(() => {
        for (const controller of this.#holding.values()) controller.abort(stopReasons.shutdown);
      }, drain);
      await closed;
      clearTimeout(timer);
    }
    this.#unsubscribe?.();
    await this.#notifications.close();
    await this.#jobs.close();
    this.#logger.info(`crew-queue: worker ${this.id} closed`);
  }

  async #process(job: Job<RunJobData>, token: string | undefined): Promise<string> {
    const { runId } = job.data;
    const controller = new AbortController();
    // Registered before the claim, so a cancel sent the moment the run is claimed is seen.
    this.#holding.set(runId, controller);
    try {
      const run = await this.#store.claim(runId, this.id);
      if (!run) return "not active";
      return await this.#execute(run, controller, job, token);
    } finally {
      this.#holding.delete(runId);
    }
  }

  async #execute(
    run: RunRecord,
    controller: AbortController,
    job: Job<RunJobData>,
    token: string | undefined,
  ): Promise<string> {
    const { runId, threadId, leaseEpoch: epoch, attempts: attempt } = run;
    const where = `run ${runId} on thread "${threadId}"`;
    if (run.cancelRequested) return this.#end(run, "cancelled");
    const maxAttempts = this.#options.maxRunAttempts ?? 20;
    if (attempt > maxAttempts) {
      this.#logger.error(`crew-queue: ${where} was taken ${maxAttempts} times already; it fails`);
      return this.#end(run, "failed", {
        error: `taken ${maxAttempts} times without finishing (maxRunAttempts): workers keep dying or failing on it`,
      });
    }
    const factory = this.#options.crews[run.crew];
    if (!factory) {
      const error = new UnknownCrewError({
        crew: run.crew,
        known: Object.keys(this.#options.crews),
      });
      this.#logger.error(`crew-queue: ${where}: ${error.message}`);
      return this.#end(run, "failed", { error: describe(error) });
    }
    this.#leases.set(runId, epoch);
    this.#logger.info(
      `crew-queue: ${where} taken by ${this.id} (attempt ${attempt}, lease ${epoch})`,
    );
    try {
      const graph = await this.#crew(run.crew, factory);
      const latest = await this.#saver.getLatest(threadId);
      // The thread's newest checkpoint is this run's: it started before, so it continues.
      const input = latest?.runId === runId ? null : inputOf(run.input);
      const config = {
        configurable: {
          thread_id: threadId,
          run_id: runId,
          ...(run.input.userId === undefined ? {} : { user_id: run.input.userId }),
        },
        signal: controller.signal,
        checkpointMetadata: { worker: this.id, attempt },
      };
      let state: StateRecord | undefined;
      for await (const event of graph.stream(input as never, config)) {
        if (event.type === "node_start") {
          await this.#store.notify({
            type: "node_start",
            runId,
            node: event.node,
            step: event.step,
            visit: event.visit,
            attempt,
          });
        } else if (event.type === "node_end") {
          await this.#store.notify({
            type: "node_end",
            runId,
            node: event.node,
            step: event.step,
            attempt,
          });
        } else if (event.type === "done") {
          state = event.state;
        }
      }
      if (state === undefined) {
        return this.#end(run, "failed", {
          error: "A node paused the run on an interrupt, which queued runs do not support",
        });
      }
      return this.#end(run, "done", { result: state });
    } catch (error) {
      const reason = controller.signal.reason;
      if (leaseLost(error)) {
        const lost = new LeaseLostError({ runId, leaseEpoch: epoch, cause: error });
        this.#logger.warn(`crew-queue: ${lost.message}; this worker drops it`);
        return "lease lost";
      }
      if (reason === stopReasons.shutdown) {
        await this.#store.release(runId, epoch);
        this.#logger.info(`crew-queue: ${where} checkpointed and given back (worker closing)`);
        await job.moveToWait(token);
        throw new WaitingError();
      }
      if (reason === stopReasons.cancel) return this.#end(run, "cancelled");
      if (isTransient(error)) {
        this.#logger.warn(`crew-queue: ${where} interrupted, retried later: ${describe(error)}`);
        throw error;
      }
      this.#logger.error(`crew-queue: ${where} failed: ${describe(error)}`);
      return this.#end(run, "failed", { error: describe(error) });
    } finally {
      this.#leases.delete(runId);
    }
  }

  /** The crew's graph, built on first use and shared by every run of it on this worker. */
  #crew(name: string, factory: CrewFactory): Promise<CompiledGraph<StateDefinition>> {
    let graph = this.#crews.get(name);
    if (!graph) {
      graph = Promise.resolve(factory({ checkpointer: this.#checkpointer, crew: name })).then(
        graphOf,
      );
      // A factory that failed is asked again by the next run.
      graph.catch(() => this.#crews.delete(name));
      this.#crews.set(name, graph);
    }
    return graph;
  }

  async #end(
    run: RunRecord,
    status: "done" | "failed" | "cancelled",
    outcome: { result?: unknown; error?: string } = {},
  ): Promise<string> {
    if (!(await this.#store.finish(run.runId, run.leaseEpoch, status, outcome))) {
      this.#logger.warn(
        `crew-queue: ${new LeaseLostError({ runId: run.runId, leaseEpoch: run.leaseEpoch }).message}; its ${status} is not recorded`,
      );
      return "lease lost";
    }
    this.#logger.info(`crew-queue: run ${run.runId} on thread "${run.threadId}" ${status}`);
    await this.#jobs.startNext(run.threadId);
    return status;
  }
}
