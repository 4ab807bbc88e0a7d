import { AbortedError } from "../error/aborted-error.js";
import type { Logger } from "../log/logger.js";
import type { ModelRetry } from "./chat-model.js";

/** Why a failed attempt may be retried, and how long the provider asked us to wait. */
export interface RetryAdvice {
  /** Short reason for the log line, e.g. `"HTTP 429"`. */
  reason: string;
  /** The provider's Retry-After, in milliseconds; the backoff applies when absent. */
  retryAfterMs?: number;
  /** HTTP status of the failed attempt, for {@link RetryPolicy.onRetry}. */
  status?: number;
}

/** How {@link retryWithBackoff} retries. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  /** Wait before the first retry when the provider gives none; doubles each retry. */
  baseDelayMs: number;
  /** Upper bound of every wait, the provider's Retry-After included. */
  maxDelayMs: number;
  /** Returns advice to retry after `error`, or `undefined` to fail at once. */
  shouldRetry: (error: unknown) => RetryAdvice | undefined;
  /** Where the wait lines go. */
  logger: Logger;
  /** The request path named in the log line, e.g. `"/chat/completions"`. */
  path: string;
  /** Ends a wait early with an {@link AbortedError}. */
  signal?: AbortSignal;
  /** The operation named by the {@link AbortedError}, e.g. `"chat completion"`. */
  operation: string;
  /** Told before each wait, after the log line. */
  onRetry?: (retry: ModelRetry) => void;
}

/** The wait before retry number `retry` (1-based) without a Retry-After: 1, 2, 4... times the base. */
export function backoffDelayMs(retry: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(baseDelayMs * 2 ** (retry - 1), maxDelayMs);
}

/**
 * Reads the wait a provider asks for from `retry-after-ms` (milliseconds, a non-standard
 * header OpenAI sends) or `Retry-After` (seconds or an HTTP date). Returns milliseconds, or
 * `undefined` when neither header holds a usable value.
 */
export function parseRetryAfter(
  headers: Headers | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && milliseconds.trim() !== "") {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get("retry-after")?.trim();
  if (!retryAfter) return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Waits `ms`, or rejects with an {@link AbortedError} as soon as `signal` fires. The timer
 * and the listener are removed either way, so an aborted wait leaves nothing pending.
 */
export function abortableDelay(ms: number, signal: AbortSignal | undefined, operation: string) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError({ operation, cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError({ operation, cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function formatSeconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

/**
 * Runs `attempt` (numbered from 1) until it succeeds, `policy.shouldRetry` refuses the
 * error, or the retries are used up; then rethrows the last error. Each wait is logged as
 * `Retrying request to <path> in <seconds> seconds (attempt <k>/<max>, <reason>)`, where
 * `k` counts retries.
 */
export async function retryWithBackoff<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      // Attempt n failing is followed by retry number n.
      const advice = attemptNumber <= policy.maxRetries ? policy.shouldRetry(error) : undefined;
      if (!advice) throw error;
      const delayMs = Math.min(
        advice.retryAfterMs ?? backoffDelayMs(attemptNumber, policy.baseDelayMs, policy.maxDelayMs),
        policy.maxDelayMs,
      );
      policy.logger.warn(
        `Retrying request to ${policy.path} in ${formatSeconds(delayMs)} seconds (attempt ${attemptNumber}/${policy.maxRetries}, ${advice.reason})`,
      );
      policy.onRetry?.({
        attempt: attemptNumber,
        delayMs,
        ...(advice.status !== undefined ? { status: advice.status } : {}),
      });
      await abortableDelay(delayMs, policy.signal, policy.operation);
    }
  }
}
