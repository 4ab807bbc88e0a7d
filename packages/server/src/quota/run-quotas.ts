import { RunQuotaExceededError, type RunQuotaLimit } from "../error/run-quota-exceeded-error.js";
import type { ServerStore } from "../store/server-store.js";

/** The `Retry-After` of a run refused by a quota, by default, in seconds. */
export const DEFAULT_QUOTA_RETRY_AFTER_SECONDS = 5;

/**
 * Per-user limits on runs, counted in the server's store, so they hold across every instance
 * sharing it. A run creation over a limit is answered 429 with `Retry-After`.
 */
export interface RunQuotaOptions {
  /**
   * The most runs a user may have active: pending or running. Counting the pending ones too
   * bounds how many of the user's runs can ever execute at once. Default: no limit.
   */
  maxActiveRunsPerUser?: number;
  /** The most runs a user may have waiting to start (`pending`). Default: no limit. */
  maxPendingRunsPerUser?: number;
  /** The `Retry-After` answered, in seconds. Default {@link DEFAULT_QUOTA_RETRY_AFTER_SECONDS}. */
  retryAfterSeconds?: number;
}

/**
 * Checks a user's runs against the quotas before a run is created. The count and the insertion
 * are two steps, so creations by one user racing each other may each pass: a limit can be
 * overshot by the number of that user's creations in flight at the same instant (never by
 * runs created one after another).
 */
export class RunQuotas {
  readonly #options: RunQuotaOptions;
  readonly #store: ServerStore;
  readonly #refused: ((limit: RunQuotaLimit) => void) | undefined;

  constructor(
    options: RunQuotaOptions,
    store: ServerStore,
    refused?: (limit: RunQuotaLimit) => void,
  ) {
    this.#options = options;
    this.#store = store;
    this.#refused = refused;
  }

  /**
   * @throws RunQuotaExceededError when `owner` has as many active or pending runs as allowed.
   */
  async check(owner: string): Promise<void> {
    const { maxActiveRunsPerUser: maxActive, maxPendingRunsPerUser: maxPending } = this.#options;
    if (maxActive === undefined && maxPending === undefined) return;
    const { pending, running } = await this.#store.countRuns(owner);
    if (maxActive !== undefined && pending + running >= maxActive) {
      throw this.#exceeded("active", maxActive, pending + running);
    }
    if (maxPending !== undefined && pending >= maxPending) {
      throw this.#exceeded("pending", maxPending, pending);
    }
  }

  #exceeded(limit: RunQuotaLimit, maxRuns: number, currentRuns: number): RunQuotaExceededError {
    this.#refused?.(limit);
    return new RunQuotaExceededError({
      limit,
      maxRuns,
      currentRuns,
      retryAfterSeconds: this.#options.retryAfterSeconds ?? DEFAULT_QUOTA_RETRY_AFTER_SECONDS,
    });
  }
}
