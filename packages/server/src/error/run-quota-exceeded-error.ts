import { FrameworkError } from "@framework/core";

const name = "RunQuotaExceededError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** Which of the server's per-user run limits a run creation hit. */
export type RunQuotaLimit = "active" | "pending";

/**
 * A user already has as many active (pending or running) or pending runs as the server's
 * `quotas` allow: the run is not created. Answered 429 with a `Retry-After` header.
 */
export class RunQuotaExceededError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 429;
  /** The limit hit. */
  declare readonly limit: RunQuotaLimit;
  /** The limit's value. */
  declare readonly maxRuns: number;
  /** How many such runs the user has now. */
  declare readonly currentRuns: number;
  /** When to try again, in seconds: the `Retry-After` header's value. */
  declare readonly retryAfterSeconds: number;

  constructor(options: {
    limit: RunQuotaLimit;
    maxRuns: number;
    currentRuns: number;
    retryAfterSeconds: number;
  }) {
    const what = options.limit === "active" ? "active (pending or running)" : "pending";
    super({
      name,
      message: `Too many ${what} runs: ${options.currentRuns} of at most ${options.maxRuns}; try again in ${options.retryAfterSeconds} s`,
      fields: {
        status: 429,
        limit: options.limit,
        maxRuns: options.maxRuns,
        currentRuns: options.currentRuns,
        retryAfterSeconds: options.retryAfterSeconds,
      },
    });
  }

  static override isInstance(error: unknown): error is RunQuotaExceededError {
    return FrameworkError.hasMarker(error, marker);
  }
}
