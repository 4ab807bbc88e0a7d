import type { Logger } from "@framework/core";
import type { WebhookAttempt, WebhookMessage } from "./webhook-sender.js";
import { loggableUrl } from "./webhook-url.js";

/** How a webhook's delivery ended, as counted by the server's metrics. */
export type WebhookOutcome = "delivered" | "failed" | "refused";

/**
 * Where the server hands the webhooks of ended runs. The embedded default retries in this
 * process ({@link InProcessWebhookDelivery}); one backed by a durable queue (retries that
 * survive a restart) implements the same two methods around {@link sendWebhook}.
 */
export interface WebhookDelivery {
  /** Takes a webhook to deliver; settles once it is taken, not once it is delivered. */
  deliver(message: WebhookMessage): Promise<void>;
  /** Stops delivering: waits for attempts under way, drops the retries not yet due. */
  close(): Promise<void>;
}

/**
 * What every {@link WebhookDelivery} is made from: how to make one attempt, and the retry
 * policy of the server's `webhooks` option.
 */
export interface WebhookDeliveryOptions {
  /** Makes one attempt; `signal` aborts it when the delivery closes. */
  readonly send: (message: WebhookMessage, signal: AbortSignal) => Promise<WebhookAttempt>;
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly logger: Logger;
  /** Hears how each delivery ended. */
  readonly ended?: (outcome: WebhookOutcome) => void;
}

/** Makes the delivery a server or queue worker hands its webhooks to. */
export type WebhookDeliveryFactory = (options: WebhookDeliveryOptions) => WebhookDelivery;

/**
 * Delivers webhooks from this process: each attempt is logged, and a network error, a timeout,
 * a 429 or a 5xx is retried after an exponentially growing wait (with jitter, so receivers
 * that failed together are not retried together), or after the receiver's `Retry-After`.
 * Retries not yet due when the server stops are lost.
 */
export class InProcessWebhookDelivery implements WebhookDelivery {
  readonly #options: WebhookDeliveryOptions;
  readonly #closed = new AbortController();
  readonly #under = new Set<Promise<void>>();

  constructor(options: WebhookDeliveryOptions) {
    this.#options = options;
  }

  async deliver(message: WebhookMessage): Promise<void> {
    if (this.#closed.signal.aborted) {
      this.#options.logger.warn(
        `Webhook ${message.id} of run ${message.runId} not sent: the server is closing`,
      );
      return;
    }
    const task = this.#deliver(message).finally(() => this.#under.delete(task));
    this.#under.add(task);
  }

  async close(): Promise<void> {
    this.#closed.abort();
    await Promise.all(this.#under);
  }

  async #deliver(message: WebhookMessage): Promise<void> {
    const { logger, maxAttempts } = this.#options;
    const signal = this.#closed.signal;
    const target = `Webhook ${message.id} of run ${message.runId} to ${loggableUrl(message.url)}`;
    for (let attempt = 1; ; attempt++) {
      const result = await this.#options.send(message, signal);
      const tried = `${target}: attempt ${attempt} of ${maxAttempts}`;
      if (result.outcome === "delivered") {
        logger.info(`${tried} delivered (${result.status})`);
        this.#options.ended?.("delivered");
        return;
      }
      if (result.outcome !== "retry") {
        logger.warn(`${tried} ${result.reason}; not delivered`);
        this.#options.ended?.(result.outcome);
        return;
      }
      if (signal.aborted || attempt >= maxAttempts) {
        logger.warn(
          `${tried} ${result.reason}; not delivered${signal.aborted ? " (the server is closing)" : ""}`,
        );
        this.#options.ended?.("failed");
        return;
      }
      const wait = retryDelayMs(attempt, result.retryAfterMs, this.#options);
      logger.info(`${tried} ${result.reason}; retrying in ${(wait / 1000).toFixed(1)} s`);
      if (!(await sleep(wait, signal))) {
        logger.warn(`${target}: not delivered, the server closed before attempt ${attempt + 1}`);
        this.#options.ended?.("failed");
        return;
      }
    }
  }
}

/**
 * The wait before the attempt after `attempt`: the receiver's `Retry-After` when it gave one,
 * else the first delay doubled per retry with equal jitter (half fixed, half random); never
 * more than `maxRetryDelayMs`.
 */
export function retryDelayMs(
  attempt: number,
  retryAfter: number | undefined,
  options: Pick<WebhookDeliveryOptions, "retryDelayMs" | "maxRetryDelayMs">,
  random: () => number = Math.random,
): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, options.maxRetryDelayMs);
  const backoff = Math.min(options.retryDelayMs * 2 ** (attempt - 1), options.maxRetryDelayMs);
  return Math.round(backoff / 2 + (random() * backoff) / 2);
}

/** Waits `ms`; `false` when `signal` aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}
