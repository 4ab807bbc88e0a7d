import type { Agent, Logger } from "@framework/core";
import type { Checkpointer } from "@framework/graph";
import type { MeterProvider } from "@opentelemetry/api";
import type { ServableGraph } from "../assistant/served-assistant.js";
import type { ServerStore } from "../store/server-store.js";
import type { WebhookDeliveryFactory } from "../webhook/webhook-delivery.js";
import type { WebhookOptions } from "../webhook/webhook-options.js";
import type { RunDispatcher } from "./run-dispatcher.js";
import { createServerRuns } from "./server-runs.js";

/** Options of {@link createRunExecutor}. */
export interface RunExecutorOptions {
  readonly agents?: Readonly<Record<string, Agent>>;
  readonly graphs?: Readonly<Record<string, ServableGraph>>;
  /** The store the server instances share. */
  readonly store: ServerStore;
  /** What the served graphs are bound to (a worker's is fenced by its leases). */
  readonly checkpointer: Checkpointer;
  /** Wakes the pool for the runs a recovery finds. */
  readonly dispatcher: RunDispatcher;
  readonly logger: Logger;
  /** How the webhooks the runs ask for are sent: as the server instances' `webhooks`. */
  readonly webhooks?: WebhookOptions;
  /** Where the webhooks go (the queue's, durable). Default: retried in this process. */
  readonly webhookDelivery?: WebhookDeliveryFactory;
  /** Where the run metrics go. Default: the global meter provider. */
  readonly meterProvider?: MeterProvider;
}

/** A server's run execution without HTTP: what a queue worker runs. */
export interface RunExecutor {
  /** Follows the store's changes (stops asked for anywhere) and wakes the pool for what is unfinished. */
  start(): Promise<void>;
  /** Executes the thread's unfinished runs here, unless a live process holds the thread. */
  executeThread(threadId: string): Promise<void>;
  /** The threads whose runs execute here now. */
  executingThreads(): string[];
  /** Wakes the pool for every thread with unfinished runs: the recovery sweep. */
  recover(): Promise<void>;
  /** Drains executing runs as `FrameworkServer.close` does, within `graceMs`. */
  close(graceMs: number): Promise<void>;
}

/**
 * The run execution of `createServer` (same stream modes, interrupts, multitask strategies,
 * cancels and recovery), for a worker that executes what a queue wakes it for.
 */
export function createRunExecutor(options: RunExecutorOptions): RunExecutor {
  const { log, reporting, runs } = createServerRuns(options);
  return {
    start: () => runs.start(),
    executeThread: (threadId) => runs.executeThread(threadId),
    recover: () => runs.recover(),
    executingThreads: () => runs.executingThreads(),
    async close(graceMs) {
      await runs.close(graceMs);
      await log.flush().catch(() => {});
      await reporting.close();
    },
  };
}
