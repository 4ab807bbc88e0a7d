import { FrameworkError } from "@framework/core";

const name = "WebhookAttemptFailedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * One attempt at a webhook got no answer, or one worth another try (a 429 or a 5xx): the
 * queue's worker fails the attempt with it, and BullMQ tries again after `retryInMs`.
 */
export class WebhookAttemptFailedError extends FrameworkError {
  private readonly [symbol] = true;

  /** The webhook's `webhook-id`, its job's id. */
  declare readonly webhookId: string;
  /** The run the webhook tells of. */
  declare readonly runId: string;
  /** How long to wait before the next attempt: the receiver's `Retry-After`, or the backoff. */
  declare readonly retryInMs: number;

  constructor(options: { webhookId: string; runId: string; reason: string; retryInMs: number }) {
    super({
      name,
      message: `Webhook ${options.webhookId} of run ${options.runId}: ${options.reason}`,
      fields: { webhookId: options.webhookId, runId: options.runId, retryInMs: options.retryInMs },
    });
  }

  static override isInstance(error: unknown): error is WebhookAttemptFailedError {
    return FrameworkError.hasMarker(error, marker);
  }
}
