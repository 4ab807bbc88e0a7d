import type { Logger } from "@framework/core";
import type { CronRecord, ServerStore } from "../store/server-store.js";
import type { CronRunner } from "./cron-runner.js";

/**
 * What makes crons' ticks fire in a server process. The default is {@link TimerCronScheduler};
 * a queue's job scheduler can take its place, calling the same {@link CronRunner}.
 */
export interface CronScheduler {
  /** Starts firing due ticks. */
  start(): void;
  /**
   * A cron was created, changed or deleted in this process: `cron` is it as stored now,
   * `undefined` once deleted. Settles once the scheduler follows the change.
   */
  changed(cronId: string, cron: CronRecord | undefined): void | Promise<void>;
  /** Stops firing; settles once a tick being fired has its run created. */
  close(): Promise<void>;
}

/** The longest delay `setTimeout` takes (about 24.8 days). */
const maxTimerMs = 2_147_483_647;

/** Options of {@link TimerCronScheduler}. */
export interface TimerCronSchedulerOptions {
  readonly store: ServerStore;
  readonly runner: CronRunner;
  readonly logger: Logger;
  /**
   * The longest this process sleeps without reading the store: how soon it hears of crons
   * created or changed by other processes sharing the store.
   */
  readonly pollIntervalMs: number;
  /** How many upcoming crons one read takes. Default 100. */
  readonly batchSize?: number;
}

/**
 * Fires crons from a timer: reads the soonest upcoming crons, fires the due ones through the
 * runner (which claims each tick in the store, so several processes running this scheduler
 * over one store fire each tick once), then sleeps until the next tick it knows of, or
 * `pollIntervalMs`, whichever comes first.
 */
export class TimerCronScheduler implements CronScheduler {
  readonly #store: ServerStore;
  readonly #runner: CronRunner;
  readonly #logger: Logger;
  readonly #pollIntervalMs: number;
  readonly #batchSize: number;
  #timer: NodeJS.Timeout | undefined;
  /** The pass under way, if any. */
  #pass: Promise<void> | undefined;
  /** A change was heard during a pass: look again when it ends. */
  #again = false;
  #started = false;
  #closed = false;

  constructor(options: TimerCronSchedulerOptions) {
    this.#store = options.store;
    this.#runner = options.runner;
    this.#logger = options.logger;
    this.#pollIntervalMs = Math.max(1, options.pollIntervalMs);
    this.#batchSize = options.batchSize ?? 100;
  }

  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#look();
  }

  changed(): void {
    if (this.#started) this.#look();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#pass;
  }

  #look(): void {
    if (this.#closed) return;
    if (this.#pass) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#pass = this.#fireDue()
      .catch((error: unknown) => {
        this.#logger.warn(`Firing due crons failed: ${String(error)}`);
        return this.#pollIntervalMs;
      })
      .then((sleepMs) => {
        this.#pass = undefined;
        if (this.#closed) return;
        if (this.#again) {
          this.#again = false;
          this.#look();
          return;
        }
        this.#timer = setTimeout(() => this.#look(), sleepMs);
        this.#timer.unref();
      });
  }

  /** Fires what is due; answers how long to sleep before the next look. */
  async #fireDue(): Promise<number> {
    for (;;) {
      const upcoming = await this.#store.upcomingCrons(this.#batchSize);
      const now = Date.now();
      const notDue = upcoming.find((cron) => Date.parse(cron.nextRunDate!) > now);
      let fired = 0;
      for (const cron of upcoming) {
        if (this.#closed || cron === notDue) break;
        await this.#runner.fire(cron, new Date(now));
        fired++;
      }
      if (this.#closed) return this.#pollIntervalMs;
      // The fired crons moved on to ticks this read does not know: read again.
      if (fired > 0) continue;
      const untilNext = notDue === undefined ? Infinity : Date.parse(notDue.nextRunDate!) - now;
      return Math.min(this.#pollIntervalMs, maxTimerMs, Math.max(0, untilNext));
    }
  }
}
