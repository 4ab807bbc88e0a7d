import { randomUUID } from "node:crypto";
import { type Logger, registerSecret } from "@framework/core";
import type { AssistantRegistry } from "../assistant/assistant-registry.js";
import { RequestValidationError } from "../error/request-validation-error.js";
import { wireRun } from "../http/wire-records.js";
import type { RunEnd } from "../run/run-end.js";
import type { RunObserver } from "../run/run-observer.js";
import { readThreadState } from "../run/thread-state.js";
import type { JsonObject, RunRecord, ServerStore } from "../store/server-store.js";
import {
  InProcessWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryFactory,
  type WebhookOutcome,
} from "./webhook-delivery.js";
import {
  DEFAULT_WEBHOOK_MAX_ATTEMPTS,
  DEFAULT_WEBHOOK_MAX_RETRY_DELAY_MS,
  DEFAULT_WEBHOOK_RETRY_DELAY_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type WebhookOptions,
} from "./webhook-options.js";
import { sendWebhook } from "./webhook-sender.js";
import { webhookKey } from "./webhook-signature.js";
import { type WebhookTargets, webhookUrlProblem } from "./webhook-url.js";

/** What {@link RunWebhooks} works with. */
export interface RunWebhooksOptions {
  readonly options: WebhookOptions;
  readonly store: ServerStore;
  readonly assistants: AssistantRegistry;
  readonly logger: Logger;
  /** Hears how each delivery ended (the metrics). */
  readonly ended?: (outcome: WebhookOutcome) => void;
  /** Where the webhooks go (a queue's, durable). Default: retried in this process. */
  readonly delivery?: WebhookDeliveryFactory;
}

/**
 * The webhooks of runs: checks a run's URL when it is created, and when the run ends (in the
 * process that ended it) hands a POST telling of it, signed when there is a secret, to the
 * delivery.
 */
export class RunWebhooks implements RunObserver {
  readonly #targets: WebhookTargets;
  readonly #store: ServerStore;
  readonly #assistants: AssistantRegistry;
  readonly #logger: Logger;
  readonly #delivery: WebhookDelivery;
  /** When the runs executing here started, for `run_started_at`. */
  readonly #started = new Map<string, string>();

  /** @throws ConfigurationError for a secret that is not a Standard Webhooks one. */
  constructor({ options, store, assistants, logger, ended, delivery }: RunWebhooksOptions) {
    if (options.secret !== undefined) registerSecret(options.secret);
    const key = options.secret === undefined ? undefined : webhookKey(options.secret);
    const targets: WebhookTargets = {
      allowPrivateNetworks: options.allowPrivateNetworks ?? false,
      ...(options.allowedHosts ? { allowedHosts: [...options.allowedHosts] } : {}),
    };
    this.#targets = targets;
    this.#store = store;
    this.#assistants = assistants;
    this.#logger = logger;
    const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    const deliveryOf = delivery ?? ((settings) => new InProcessWebhookDelivery(settings));
    this.#delivery = deliveryOf({
      send: (message, signal) => sendWebhook(message, { ...targets, key, timeoutMs, signal }),
      maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_WEBHOOK_MAX_ATTEMPTS),
      retryDelayMs: options.retryDelayMs ?? DEFAULT_WEBHOOK_RETRY_DELAY_MS,
      maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_WEBHOOK_MAX_RETRY_DELAY_MS,
      logger,
      ...(ended ? { ended } : {}),
    });
  }

  /**
   * Refuses a run's webhook URL that can never be sent to.
   *
   * @throws RequestValidationError (422) for a URL that is not http(s), holds credentials, is
   *   not to an allowed host, or names a non-public address literally while private networks
   *   are not allowed.
   */
  check(url: string): void {
    const problem = webhookUrlProblem(url, this.#targets);
    if (problem !== undefined) {
      throw new RequestValidationError({ issues: [{ path: ["webhook"], message: problem }] });
    }
  }

  runStarted(run: RunRecord): void {
    if (run.request.webhook !== undefined) this.#started.set(run.runId, new Date().toISOString());
  }

  runEnded(end: RunEnd): void {
    const { run } = end;
    const url = run.request.webhook;
    const startedAt = this.#started.get(run.runId);
    this.#started.delete(run.runId);
    if (url === undefined) return;
    this.#send(url, end, startedAt).catch((error: unknown) =>
      this.#logger.warn(
        `Webhook of run ${run.runId} not sent: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }

  /** Stops delivering (see {@link WebhookDelivery.close}). */
  close(): Promise<void> {
    return this.#delivery.close();
  }

  async #send(url: string, end: RunEnd, startedAt: string | undefined): Promise<void> {
    const { run } = end;
    const payload = {
      ...wireRun(run),
      ...(startedAt === undefined ? {} : { run_started_at: startedAt }),
      run_ended_at: run.updatedAt,
      webhook_sent_at: new Date().toISOString(),
      values: end.values ?? (await this.#valuesOf(run)),
      ...(run.error ? { error: run.error.message } : {}),
    };
    await this.#delivery.deliver({
      id: `msg_${randomUUID()}`,
      url,
      body: JSON.stringify(payload),
      runId: run.runId,
    });
  }

  /** The thread's values, read back when the run's end did not bring them. */
  async #valuesOf(run: RunRecord): Promise<JsonObject | null> {
    const assistant = this.#assistants.find(run.assistantId);
    const thread = await this.#store.getThread(run.owner, run.threadId);
    if (!assistant || !thread) return null;
    return (await readThreadState(assistant, thread)).values;
  }
}
