import type { Logger } from "@framework/core";
import type { CronRecord, ServerStore } from "@framework/server";
import type { CronRunner, CronScheduler } from "@framework/server/internal";
import { type ConnectionOptions, type Job, type JobSchedulerJson, Queue, Worker } from "bullmq";

/** What a cron's tick job carries: which cron; the cron itself is read from the store. */
export interface CronTickJobData {
  readonly cronId: string;
  /** The cron's owner, whose cron it is read as. */
  readonly owner: string;
}

/** How many crons' ticks an instance fires at once. */
const TICK_CONCURRENCY = 4;

/** The first read of the store's crons when reconciling; each further read takes ten times more. */
const FIRST_READ = 1_000;

/** Options of {@link QueueCronScheduler}. */
export interface QueueCronSchedulerOptions {
  /** The queue's Redis. */
  readonly connection: ConnectionOptions;
  /** The crons' own BullMQ queue, whose job schedulers are the crons'. */
  readonly queueName: string;
  /** The store the crons are in, shared by every instance. */
  readonly store: ServerStore;
  /** Fires a tick: claims it in the store, then creates its run. */
  readonly runner: CronRunner;
  readonly logger: Logger;
  /** How often to reconcile again after the start (a Redis restarted empty meanwhile). */
  readonly reconcileIntervalMs: number;
}

/**
 * Crons' ticks fired by BullMQ job schedulers: one per enabled cron (its id the cron's, its
 * pattern, time zone and end the cron's), whose jobs any instance takes and fires through the
 * {@link CronRunner}, which claims the tick in the store, so a tick two jobs race for fires
 * once. Redis holds only when to fire: on start, and every `reconcileIntervalMs` after, an
 * instance gives every enabled cron of the store its scheduler and removes those of crons
 * gone, so a Redis restarted empty gets its schedules back, and fires the ticks missed
 * meanwhile once.
 */
export class QueueCronScheduler implements CronScheduler {
  readonly #options: QueueCronSchedulerOptions;
  readonly #queue: Queue<CronTickJobData>;
  readonly #worker: Worker<CronTickJobData>;
  #started = false;
  #reconciled: Promise<void> | undefined;
  #closed: Promise<void> | undefined;
  #reconciling: NodeJS.Timeout | undefined;

  constructor(options: QueueCronSchedulerOptions) {
    this.#options = options;
    const { connection, queueName, logger } = options;
    this.#queue = new Queue<CronTickJobData>(queueName, { connection });
    // Without a listener an unreachable Redis would crash the process; BullMQ reconnects.
    this.#queue.on("error", (error) =>
      logger.warn(`server-queue: Redis error on queue ${queueName}: ${error.message}`),
    );
    this.#worker = new Worker<CronTickJobData>(queueName, (job) => this.#tick(job), {
      connection,
      concurrency: TICK_CONCURRENCY,
      autorun: false,
    });
    this.#worker.on("error", (error) =>
      logger.warn(`server-queue: Redis error on worker of ${queueName}: ${error.message}`),
    );
  }

  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#reconcileNext();
    this.#reconciling = setInterval(() => this.#reconcileNext(), this.#options.reconcileIntervalMs);
    this.#reconciling.unref();
    const { logger } = this.#options;
    void this.#worker
      .run()
      .catch((error: unknown) =>
        logger.error(`server-queue: the cron worker stopped: ${String(error)}`),
      );
  }

  async changed(cronId: string, cron: CronRecord | undefined): Promise<void> {
    try {
      await this.#follow(cronId, cron);
    } catch (error) {
      // The cron is stored: the next instance to start gives it its scheduler.
      this.#options.logger.warn(
        `Cron ${cronId}: its job scheduler was not updated: ${String(error)}`,
      );
    }
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      clearInterval(this.#reconciling);
      await this.#reconciled;
      await this.#worker.close();
      await this.#queue.close();
    })();
    return this.#closed;
  }

  /** Reconciles once the reconciliation under way, if any, has ended. */
  #reconcileNext(): void {
    const { logger } = this.#options;
    this.#reconciled = (this.#reconciled ?? Promise.resolve())
      .then(() => (this.#closed ? undefined : this.#reconcile()))
      .catch((error: unknown) =>
        logger.warn(`Reconciling crons' job schedulers with the store failed: ${String(error)}`),
      );
  }

  /** Makes `cron`'s scheduler what the cron says, or removes it when the cron fires no more. */
  async #follow(cronId: string, cron: CronRecord | undefined): Promise<void> {
    if (!firesAgain(cron)) {
      await this.#queue.removeJobScheduler(cronId);
      return;
    }
    await this.#queue.upsertJobScheduler(
      cronId,
      {
        pattern: cron.schedule,
        tz: cron.timezone ?? "UTC",
        ...(cron.endTime === null ? {} : { endDate: cron.endTime }),
      },
      {
        name: "tick",
        data: { cronId, owner: cron.owner },
        opts: { removeOnComplete: true, removeOnFail: true },
      },
    );
  }

  /**
   * Gives every cron that fires again its scheduler, removes the schedulers of the others, and
   * fires the ticks that came due while no scheduler was there to.
   */
  async #reconcile(): Promise<void> {
    const crons = await this.#upcomingCrons();
    const wanted = new Map(crons.map((cron) => [cron.cronId, cron]));
    const schedulers = await this.#queue.getJobSchedulers(0, -1);
    const have = new Map(schedulers.map((scheduler) => [scheduler.key, scheduler]));
    for (const scheduler of schedulers) {
      if (!wanted.has(scheduler.key)) await this.#queue.removeJobScheduler(scheduler.key);
    }
    for (const cron of crons) {
      if (!sameSchedule(have.get(cron.cronId), cron)) await this.#follow(cron.cronId, cron);
    }
    const now = new Date();
    for (const cron of crons) {
      if (this.#closed) return;
      if (Date.parse(cron.nextRunDate!) <= now.getTime())
        await this.#options.runner.fire(cron, now);
    }
  }

  /** Every enabled cron with a next tick. */
  async #upcomingCrons(): Promise<CronRecord[]> {
    for (let limit = FIRST_READ; ; limit *= 10) {
      const crons = await this.#options.store.upcomingCrons(limit);
      if (crons.length < limit) return crons;
    }
  }

  /** A tick job: fires the cron's due tick, unless another instance did. */
  async #tick(job: Job<CronTickJobData>): Promise<void> {
    const { cronId, owner } = job.data;
    const cron = await this.#options.store.getCron(owner, cronId);
    if (!cron) {
      // Deleted without this scheduler hearing of it (with its thread, say).
      await this.#queue.removeJobScheduler(cronId);
      return;
    }
    // The tick is due at the instant BullMQ scheduled it for, even if this clock is behind.
    const due = job.opts.prevMillis ?? 0;
    await this.#options.runner.fire(cron, new Date(Math.max(Date.now(), due)));
  }
}

/** Whether `cron` has a tick to come. */
function firesAgain(cron: CronRecord | undefined): cron is CronRecord {
  return cron?.enabled === true && cron.nextRunDate !== null;
}

/** Whether `scheduler` fires on `cron`'s schedule, time zone and end. */
function sameSchedule(scheduler: JobSchedulerJson | undefined, cron: CronRecord): boolean {
  return (
    scheduler !== undefined &&
    scheduler.pattern === cron.schedule &&
    (scheduler.tz ?? "UTC") === (cron.timezone ?? "UTC") &&
    (scheduler.endDate ?? null) === (cron.endTime === null ? null : Date.parse(cron.endTime))
  );
}
