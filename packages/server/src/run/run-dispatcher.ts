import type { Logger } from "@framework/core";
import type { Checkpointer } from "@framework/graph";
import type { CronRunner } from "../cron/cron-runner.js";
import type { CronScheduler } from "../cron/cron-scheduler.js";
import type { RunRecord, ServerStore } from "../store/server-store.js";
import type { WebhookDeliveryFactory } from "../webhook/webhook-delivery.js";

/**
 * Where a server's runs execute when not in its own process: a pool of workers woken through a
 * queue (`@framework/server-queue`'s `serverQueue` is one). The store stays the truth; a
 * dispatcher only wakes a worker, so a wake-up lost (a queue restarted empty) delays a run
 * until a worker's recovery sweep finds it, and never loses it.
 */
export interface RunDispatcher {
  /**
   * Wakes a worker to execute the pending runs of `run`'s thread (`run` is one of them). Waking
   * twice for the same run and attempt may be taken as one wake-up.
   */
  wake(run: Pick<RunRecord, "runId" | "threadId" | "attempt">): Promise<void>;
}

/**
 * Runs executed by a pool of workers: what `createServer`'s `queue` option takes
 * (`@framework/server-queue`'s `serverQueue({ redis, postgres })` makes one). The server keeps
 * threads, runs and events in `store`, binds its graphs to `checkpointer`, only submits runs,
 * and closes the queue when it closes.
 */
export interface ServerQueue extends RunDispatcher {
  /** The store every instance and worker shares. */
  readonly store: ServerStore;
  /** The checkpointer every instance and worker shares. */
  readonly checkpointer: Checkpointer;
  /**
   * Where the webhooks of runs this instance ends go, in place of retries kept in its memory:
   * a queue's, whose retries outlive the instance. Its types are in
   * `@framework/server/internal`.
   */
  readonly webhookDelivery?: WebhookDeliveryFactory;
  /**
   * What fires crons' ticks in place of each instance's timer (a queue's job schedulers),
   * through `runner`, which claims each tick in the store. Its types are in
   * `@framework/server/internal`.
   */
  cronScheduler?(runner: CronRunner, logger: Logger): CronScheduler;
  /** Closes what the queue opened; the server calls it once its runs are closed. */
  close(): Promise<void>;
}
