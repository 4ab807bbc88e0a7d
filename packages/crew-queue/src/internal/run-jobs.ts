import type { Logger } from "@framework/core";
import { type ConnectionOptions, Queue } from "bullmq";
import { jobIdOf, type RunJobData } from "../queue-connection.js";
import type { SweepResult } from "../run/sweep-result.js";
import type { RunStore } from "./run-store.js";

/** Options of {@link RunJobs}. */
export interface RunJobsOptions {
  /** The BullMQ queue's name. */
  name: string;
  connection: ConnectionOptions;
  store: RunStore;
  logger: Logger;
  /** Tries of each job this adds. */
  attempts: number;
  /** The first retry's delay. */
  backoffMs: number;
}

/**
 * The BullMQ side of the runs, shared by `CrewQueue` and `CrewWorker`: adds a run's job,
 * starts a thread's next queued run, and makes Redis agree with Postgres (a job for every
 * active run). Postgres decides which runs are active; this only keeps their jobs.
 */
export class RunJobs {
  readonly #bull: Queue<RunJobData>;
  readonly #store: RunStore;
  readonly #logger: Logger;
  readonly #attempts: number;
  readonly #backoffMs: number;

  constructor(options: RunJobsOptions) {
    this.#bull = new Queue<RunJobData>(options.name, { connection: options.connection });
    this.#store = options.store;
    this.#logger = options.logger;
    this.#attempts = options.attempts;
    this.#backoffMs = options.backoffMs;
    // Without a listener an unreachable Redis would crash the process; BullMQ reconnects.
    this.#bull.on("error", (error) =>
      this.#logger.warn(`crew-queue: Redis error on queue ${options.name}: ${error.message}`),
    );
  }

  /** Adds the run's job; a run that has one already keeps it (the job id is the run's). */
  async add(runId: string): Promise<void> {
    await this.#bull.add(
      "run",
      { runId },
      {
        jobId: jobIdOf(runId),
        attempts: this.#attempts,
        backoff: { type: "exponential", delay: this.#backoffMs },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  /** Removes the run's job, if it has one a worker does not hold. */
  async remove(runId: string): Promise<void> {
    await this.#bull.remove(jobIdOf(runId)).catch(() => 0);
  }

  /**
   * Starts the thread's oldest queued run if the thread has no active run; returns its id.
   * Workers call it when a run ends; a sweep catches any call that was lost.
   */
  async startNext(threadId: string): Promise<string | undefined> {
    const runId = await this.#store.promoteNext(threadId);
    if (runId) await this.add(runId);
    return runId;
  }

  /**
   * Adds the job of `runId` again when Postgres says the run is active and no job holds it:
   * what a sweep does for every run, for one. Workers call it when a job ends, since a run
   * resumed while its previous job was still finishing has its new job refused (same id) and
   * would otherwise wait for the next sweep. Returns whether a job was added.
   */
  async requeueIfJobless(runId: string): Promise<boolean> {
    const run = await this.#store.get(runId);
    if (!run || (run.status !== "pending" && run.status !== "running")) return false;
    return this.#requeueIfJobless(runId);
  }

  /** Adds the job of every active run that has none, and starts stalled threads' queued runs. */
  async sweep(): Promise<SweepResult> {
    const requeued: string[] = [];
    for (const runId of await this.#store.activeRuns()) {
      if (await this.#requeueIfJobless(runId)) requeued.push(runId);
    }
    const promoted: string[] = [];
    for (const threadId of await this.#store.stalledThreads()) {
      const runId = await this.startNext(threadId);
      if (runId) promoted.push(runId);
    }
    return { requeued, promoted };
  }

  /** BullMQ's counts of waiting, active, delayed and prioritized jobs. */
  counts(): Promise<Record<string, number>> {
    return this.#bull.getJobCounts("waiting", "active", "delayed", "prioritized");
  }

  /** Closes the Redis connection. */
  close(): Promise<void> {
    return this.#bull.close();
  }

  async #requeueIfJobless(runId: string): Promise<boolean> {
    const state = await this.#bull.getJobState(jobIdOf(runId));
    if (state === "completed" || state === "failed") {
      await this.remove(runId);
    } else if (state !== "unknown") {
      return false;
    }
    await this.add(runId);
    this.#logger.warn(`crew-queue: run ${runId} was active with no job; its job is added again`);
    return true;
  }
}
