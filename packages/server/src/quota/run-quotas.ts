import { RunQuotaExceededError, type RunQuotaLimit } from "../error/run-quota-exceeded-error.js";
import type { RunInsertion, RunLimits } from "../store/server-store.js";

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
 * The quotas as the store holds them: it counts the user's runs and inserts the new one in one
 * atomic step (see `ServerStore.insertRun`), so creations racing on any number of instances
 * never exceed a limit.
 */
export class RunQuotas {
  /** What `insertRun` is held to; `undefined` without any limit. */
  readonly limits: RunLimits | undefined;
  readonly #retryAfterSeconds: number;
  readonly #refused: ((limit: RunQuotaLimit) => void) | undefined;

  constructor(options: RunQuotaOptions, refused?: (limit: RunQuotaLimit) => void) {
    const { maxActiveRunsPerUser: maxActive, maxPendingRunsPerUser: maxPending } = options;
    this.limits =
      maxActive === undefined && maxPending === undefined
        ? undefined
        : {
            ...(maxActive === undefined ? {} : { maxActive }),
            ...(maxPending === undefined ? {} : { maxPending }),
          };
    this.#retryAfterSeconds = options.retryAfterSeconds ?? DEFAULT_QUOTA_RETRY_AFTER_SECONDS;
    this.#refused = refused;
  }

  /** The answer to a creation the store refused for `overLimit`. */
  exceeded(overLimit: NonNullable<RunInsertion["overLimit"]>): RunQuotaExceededError {
    this.#refused?.(overLimit.limit);
    return new RunQuotaExceededError({
      limit: overLimit.limit,
      maxRuns:
        (overLimit.limit === "active" ? this.limits?.maxActive : this.limits?.maxPending) ?? 0,
      currentRuns: overLimit.current,
      retryAfterSeconds: this.#retryAfterSeconds,
    });
  }
}
