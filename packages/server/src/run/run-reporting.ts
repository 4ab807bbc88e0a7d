import type { Logger } from "@framework/core";
import { type MeterProvider, metrics as otelMetrics } from "@opentelemetry/api";
import type { AssistantRegistry } from "../assistant/assistant-registry.js";
import { ServerMetrics } from "../metrics/server-metrics.js";
import type { ServerStore } from "../store/server-store.js";
import { RunWebhooks } from "../webhook/run-webhooks.js";
import type { WebhookDeliveryFactory } from "../webhook/webhook-delivery.js";
import type { WebhookOptions } from "../webhook/webhook-options.js";
import type { RunObserver } from "./run-observer.js";

/** Options of {@link RunReporting}. */
export interface RunReportingOptions {
  readonly webhooks?: WebhookOptions;
  /** Where the webhooks go (a queue's, durable). Default: retried in this process. */
  readonly webhookDelivery?: WebhookDeliveryFactory;
  /** Default: the global meter provider. */
  readonly meterProvider?: MeterProvider;
  readonly store: ServerStore;
  readonly assistants: AssistantRegistry;
  readonly logger: Logger;
}

/**
 * What tells the world of runs ending in this process, wherever they were created: the
 * webhooks they ask for and the run metrics. A server and a queue worker each have one, so a
 * run executed on a worker is reported as one executed by a server.
 */
export class RunReporting {
  readonly metrics: ServerMetrics;
  readonly webhooks: RunWebhooks;

  constructor({
    webhooks,
    webhookDelivery,
    meterProvider,
    store,
    assistants,
    logger,
  }: RunReportingOptions) {
    const metrics = new ServerMetrics(
      meterProvider ?? otelMetrics.getMeterProvider(),
      store,
      logger,
    );
    this.metrics = metrics;
    this.webhooks = new RunWebhooks({
      options: webhooks ?? {},
      store,
      assistants,
      logger,
      ended: (outcome) => metrics.webhookEnded(outcome),
      ...(webhookDelivery ? { delivery: webhookDelivery } : {}),
    });
  }

  /** The observers to give the run manager. */
  get observers(): readonly RunObserver[] {
    return [this.metrics, this.webhooks];
  }

  /** Stops delivering webhooks and reporting metrics. */
  async close(): Promise<void> {
    await this.webhooks.close();
    this.metrics.close();
  }
}
