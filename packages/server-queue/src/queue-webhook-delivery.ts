import {
  loggableUrl,
  retryDelayMs,
  type WebhookDelivery,
  type WebhookDeliveryOptions,
  type WebhookMessage,
} from "@framework/server/internal";
import { type ConnectionOptions, type Job, Queue, UnrecoverableError, Worker } from "bullmq";
import { WebhookAttemptFailedError } from "./webhook-attempt-failed-error.js";

/**
 * What a webhook job carries: the message, and the retry policy of the process that ended the
 * run. Never the signing secret: each attempt is signed by the process that sends it.
 */
export interface WebhookJobData {
  /** The Standard Webhooks `webhook-id`, the job's id too. */
  readonly id: string;
  readonly url: string;
  /** The JSON body, the same on every attempt. */
  readonly body: string;
  /** The run the webhook tells of. */
  readonly runId: string;
  /** The wait before the first retry; it doubles with each retry. */
  readonly retryDelayMs: number;
  /** The longest wait between attempts, a receiver's `Retry-After` included. */
  readonly maxRetryDelayMs: number;
}

/** The backoff type webhook jobs name, answered by the worker's `backoffStrategy`. */
const webhookBackoff = "webhook";

/** How long a delivered webhook's job stays: a repeat of its id within it adds nothing. */
const KEEP_DELIVERED_S = 60 * 60;
/** How long an undelivered webhook's job stays, for whoever looks into why. */
const KEEP_UNDELIVERED_S = 24 * 60 * 60;

/** Options of {@link QueueWebhookDelivery}. */
export interface QueueWebhookDeliveryOptions {
  /** The Redis both the processes adding webhooks and the ones attempting them use. */
  readonly connection: ConnectionOptions;
  /** The webhooks' own BullMQ queue. */
  readonly queueName: string;
  /** The server's or worker's attempt and retry policy (from its `webhooks` option). */
  readonly delivery: WebhookDeliveryOptions;
  /**
   * Attempts the queue's webhooks in this process too, this many at once. Without it this
   * process only adds them.
   */
  readonly concurrency?: number;
}

/**
 * Webhooks delivered through a BullMQ queue of their own, so their retries outlive the
 * process that ended the run: each webhook is one job (its id the `webhook-id`), each attempt
 * one signed `sendWebhook` call by a process attempting the queue's jobs, a retry a delayed
 * job any of them takes (after the receiver's `Retry-After`, or the backoff), a 4xx or a
 * refused address a job failed for good.
 */
export class QueueWebhookDelivery implements WebhookDelivery {
  readonly #options: QueueWebhookDeliveryOptions;
  #queue: Queue<WebhookJobData> | undefined;
  readonly #worker: Worker<WebhookJobData> | undefined;
  readonly #closing = new AbortController();
  #closed: Promise<void> | undefined;

  constructor(options: QueueWebhookDeliveryOptions) {
    this.#options = options;
    const { logger } = options.delivery;
    const { connection, queueName } = options;
    if (options.concurrency === undefined) return;
    this.#worker = new Worker<WebhookJobData>(
      queueName,
      (job, _token, signal) => this.#attempt(job, signal),
      {
        connection,
        concurrency: options.concurrency,
        settings: {
          backoffStrategy: (attemptsMade, _type, error, job) =>
            WebhookAttemptFailedError.isInstance(error)
              ? error.retryInMs
              : retryDelayMs(attemptsMade, undefined, job!.data as WebhookJobData),
        },
      },
    );
    this.#worker.on("error", (error) =>
      logger.warn(`server-queue: Redis error on worker of ${queueName}: ${error.message}`),
    );
  }

  async deliver(message: WebhookMessage): Promise<void> {
    const { delivery } = this.#options;
    if (this.#closing.signal.aborted) {
      delivery.logger.warn(
        `Webhook ${message.id} of run ${message.runId} not sent: the server is closing`,
      );
      return;
    }
    const data: WebhookJobData = {
      id: message.id,
      url: message.url,
      body: message.body,
      runId: message.runId,
      retryDelayMs: delivery.retryDelayMs,
      maxRetryDelayMs: delivery.maxRetryDelayMs,
    };
    await this.#jobs().add("webhook", data, {
      jobId: message.id,
      attempts: delivery.maxAttempts,
      backoff: { type: webhookBackoff },
      removeOnComplete: { age: KEEP_DELIVERED_S },
      removeOnFail: { age: KEEP_UNDELIVERED_S },
    });
  }

  /** Stops attempting (an attempt under way is abandoned and retried by another process). */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#closing.abort();
      await this.#worker?.close();
      await this.#queue?.close();
    })();
    return this.#closed;
  }

  /** The queue, opened on the first webhook: most instances end no run. */
  #jobs(): Queue<WebhookJobData> {
    if (!this.#queue) {
      const { connection, queueName } = this.#options;
      this.#queue = new Queue<WebhookJobData>(queueName, { connection });
      // Without a listener an unreachable Redis would crash the process; BullMQ reconnects.
      this.#queue.on("error", (error) =>
        this.#options.delivery.logger.warn(
          `server-queue: Redis error on queue ${queueName}: ${error.message}`,
        ),
      );
    }
    return this.#queue;
  }

  /** One attempt: settles when delivered, throws to have BullMQ retry it or give it up. */
  async #attempt(job: Job<WebhookJobData>, signal: AbortSignal | undefined): Promise<void> {
    const { send, logger, ended } = this.#options.delivery;
    const message: WebhookMessage = {
      id: job.data.id,
      url: job.data.url,
      body: job.data.body,
      runId: job.data.runId,
    };
    const attempt = job.attemptsMade + 1;
    const attempts = job.opts.attempts ?? 1;
    const target = `Webhook ${message.id} of run ${message.runId} to ${loggableUrl(message.url)}`;
    const tried = `${target}: attempt ${attempt} of ${attempts}`;
    const result = await send(
      message,
      signal ? AbortSignal.any([signal, this.#closing.signal]) : this.#closing.signal,
    );
    if (result.outcome === "delivered") {
      logger.info(`${tried} delivered (${result.status})`);
      ended?.("delivered");
      return;
    }
    if (result.outcome !== "retry" || attempt >= attempts) {
      logger.warn(`${tried} ${result.reason}; not delivered`);
      ended?.(result.outcome === "retry" ? "failed" : result.outcome);
      throw new UnrecoverableError(result.reason);
    }
    const wait = retryDelayMs(attempt, result.retryAfterMs, job.data);
    logger.info(`${tried} ${result.reason}; retrying in ${(wait / 1000).toFixed(1)} s`);
    throw new WebhookAttemptFailedError({
      webhookId: message.id,
      runId: message.runId,
      reason: result.reason,
      retryInMs: wait,
    });
  }
}
