import type { Logger } from "@framework/core";
import { ResourceNotFoundError } from "../error/resource-not-found-error.js";
import { ThreadBusyConflictError } from "../error/thread-busy-conflict-error.js";
import type { RunCreation, RunCreator } from "../run/run-creation.js";
import type { CronRecord, ServerStore } from "../store/server-store.js";
import { nextTick } from "./cron-schedule.js";

/** What came of one due tick of a cron, in this process. */
export type CronTickOutcome =
  /** This process claimed the tick and created its run. */
  | { readonly kind: "fired"; readonly runId: string }
  /** This process claimed the tick, but the run was not created (see the log). */
  | { readonly kind: "skipped"; readonly reason: "thread-busy" | "gone" | "failed" }
  /** Another process claimed the tick, or the cron changed or went meanwhile. */
  | { readonly kind: "taken" };

/** Options of {@link CronRunner}. */
export interface CronRunnerOptions {
  readonly store: ServerStore;
  readonly runs: RunCreator;
  readonly logger: Logger;
}

/**
 * Fires crons' due ticks: claims each tick in the store, so of all the processes sharing it
 * exactly one fires it, then creates the tick's run as the cron's owner. Whatever triggers it
 * (this process's timer, or a queue's job scheduler) calls {@link CronRunner.fire}.
 */
export class CronRunner {
  readonly #store: ServerStore;
  readonly #runs: RunCreator;
  readonly #logger: Logger;

  constructor(options: CronRunnerOptions) {
    this.#store = options.store;
    this.#runs = options.runs;
    this.#logger = options.logger;
  }

  /**
   * Fires `cron`'s tick `cron.nextRunDate`, due at `now` or before. The cron moves on to its
   * first tick after `now`, not after the due one: ticks missed while no process ran fire
   * once, not once each.
   */
  async fire(cron: CronRecord, now: Date): Promise<CronTickOutcome> {
    const due = cron.nextRunDate;
    if (due === null || Date.parse(due) > now.getTime()) return { kind: "taken" };
    const following = nextTick(cron, now);
    const claimed = await this.#store.claimCronTick(
      cron.cronId,
      due,
      following === null ? null : following.toISOString(),
    );
    if (!claimed) return { kind: "taken" };
    const label = `Cron ${claimed.cronId} (tick ${due})`;
    try {
      const run = await this.#runs.create(
        claimed.owner,
        claimed.threadId ?? undefined,
        tickRun(claimed, due),
      );
      return { kind: "fired", runId: run.runId };
    } catch (error) {
      if (ThreadBusyConflictError.isInstance(error)) {
        this.#logger.info(`${label} skipped: thread ${claimed.threadId} is busy`);
        return { kind: "skipped", reason: "thread-busy" };
      }
      if (ResourceNotFoundError.isInstance(error)) {
        this.#logger.warn(`${label} skipped: ${error.message}`);
        return { kind: "skipped", reason: "gone" };
      }
      this.#logger.warn(`${label} failed to start its run: ${String(error)}`);
      return { kind: "skipped", reason: "failed" };
    }
  }
}

/** The run a cron's tick creates; its metadata says which cron and tick made it. */
function tickRun(cron: CronRecord, due: string): RunCreation {
  return {
    assistantId: cron.assistantId,
    ...(cron.run.input === null ? {} : { input: cron.run.input }),
    config: cron.run.config,
    metadata: { ...cron.metadata, cron_id: cron.cronId, cron_run_date: due },
    streamMode: cron.run.streamMode,
    multitaskStrategy: cron.run.multitaskStrategy,
    onDisconnect: "continue",
    ...(cron.threadId === null ? { onCompletion: cron.onRunCompleted } : {}),
    ...(cron.run.webhook === null ? {} : { webhook: cron.run.webhook }),
  };
}
