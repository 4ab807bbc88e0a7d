import type { Agent, Logger } from "@framework/core";
import type { Checkpointer } from "@framework/graph";
import type { MeterProvider } from "@opentelemetry/api";
import { type AssistantRegistry, servedAssistants } from "../assistant/assistant-registry.js";
import type { ServableGraph } from "../assistant/served-assistant.js";
import { type RunQuotaOptions, RunQuotas } from "../quota/run-quotas.js";
import type { ServerStore } from "../store/server-store.js";
import type { WebhookDeliveryFactory } from "../webhook/webhook-delivery.js";
import type { WebhookOptions } from "../webhook/webhook-options.js";
import type { RunDispatcher } from "./run-dispatcher.js";
import { RunEventLog } from "./run-event-log.js";
import { RunManager } from "./run-manager.js";
import { RunReporting } from "./run-reporting.js";

/** Options of {@link createServerRuns}. */
export interface ServerRunsOptions {
  readonly agents?: Readonly<Record<string, Agent>>;
  readonly graphs?: Readonly<Record<string, ServableGraph>>;
  /** Threads, runs and events: on a queue worker, the store the server instances share. */
  readonly store: ServerStore;
  /** What the served graphs are bound to (a worker's is fenced by its leases). */
  readonly checkpointer: Checkpointer;
  readonly logger: Logger;
  /** How the webhooks the runs ask for are sent. */
  readonly webhooks?: WebhookOptions | undefined;
  /** Where the webhooks go (a queue's, durable). Default: retried in this process. */
  readonly webhookDelivery?: WebhookDeliveryFactory | undefined;
  /** Where the run metrics go. Default: the global meter provider. */
  readonly meterProvider?: MeterProvider | undefined;
  /** Runs execute elsewhere, woken through it (see `RunManagerOptions.dispatcher`). */
  readonly dispatcher?: RunDispatcher | undefined;
  readonly quotas?: RunQuotaOptions | undefined;
}

/** What executes a server's runs, and what reports them. */
export interface ServerRuns {
  readonly assistants: AssistantRegistry;
  readonly log: RunEventLog;
  readonly reporting: RunReporting;
  readonly runs: RunManager;
}

/**
 * The run execution a server instance and a queue worker share: the served assistants, the
 * event log, the webhooks and metrics that report the runs, and the run manager over them (a
 * webhook URL checked as a run is created, creations held to the quotas).
 */
export function createServerRuns(options: ServerRunsOptions): ServerRuns {
  const { store, checkpointer, logger } = options;
  const assistants = servedAssistants(options, checkpointer);
  const log = new RunEventLog(store);
  const reporting = new RunReporting({
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.webhookDelivery ? { webhookDelivery: options.webhookDelivery } : {}),
    ...(options.meterProvider ? { meterProvider: options.meterProvider } : {}),
    store,
    assistants,
    logger,
  });
  const { metrics, webhooks } = reporting;
  const runs = new RunManager({
    store,
    log,
    assistants,
    checkpointer,
    logger,
    admit(creation) {
      if (creation.webhook !== undefined) webhooks.check(creation.webhook);
    },
    quotas: new RunQuotas(options.quotas ?? {}, (limit) => metrics.quotaRefused(limit)),
    observers: reporting.observers,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  return { assistants, log, reporting, runs };
}
