import type { Agent, Logger } from "@framework/core";
import { getDefaultLogger, withRedaction } from "@framework/core";
import {
  DEFAULT_RECOVERY_INTERVAL_MS,
  DEFAULT_SHUTDOWN_GRACE_MS,
  type ServableGraph,
  type ServerOptions,
  type WebhookOptions,
} from "@framework/server";
import { createRunExecutor } from "@framework/server/internal";
import { Worker } from "bullmq";
import { QueueWebhookDelivery } from "./queue-webhook-delivery.js";
import { serverQueue, type WakeJobData } from "./server-queue.js";
import { type ServerQueueConnection, webhookQueueName } from "./server-queue-connection.js";

/** How many threads a worker executes at once, by default. */
export const DEFAULT_WORKER_CONCURRENCY = 4;

/** How many webhook attempts a worker makes at once: each only waits on a receiver. */
const WEBHOOK_CONCURRENCY = 16;

/** Options of {@link createServerWorker}. */
export interface ServerWorkerOptions {
  /** The agents the server instances serve, by the same names. */
  agents?: Readonly<Record<string, Agent>>;
  /** The graphs and crews the server instances serve, by the same names. */
  graphs?: Readonly<Record<string, ServableGraph>>;
  /** Where the instances submit runs: the same Redis, PostgreSQL and queue name as theirs. */
  queue: ServerQueueConnection;
  /**
   * How many threads this worker executes at once (each runs its pending runs one after
   * another). A run waiting on an interrupt holds none. Default
   * {@link DEFAULT_WORKER_CONCURRENCY}.
   */
  concurrency?: number;
  /**
   * How often the worker looks for unfinished runs nobody executes (their worker died or was
   * paused past its lease, or their wake-up was lost with Redis) and wakes the pool for them.
   * Default `DEFAULT_RECOVERY_INTERVAL_MS` of `@framework/server` (10 s).
   */
  recoveryIntervalMs?: number;
  /** How long `close()` lets running nodes end. Default `DEFAULT_SHUTDOWN_GRACE_MS` (10 s). */
  shutdownGraceMs?: number;
  /**
   * How the webhooks runs ask for are sent, as the instances' `webhooks` option. Workers
   * attempt every webhook of the queue's webhook queue, whoever ended the run, and sign each
   * attempt: give them the instances' secret and network allowances.
   */
  webhooks?: WebhookOptions;
  /** Where the run metrics of the runs this worker executes go. Default: the global one. */
  meterProvider?: ServerOptions["meterProvider"];
  /** Receives the worker's log lines, secrets redacted. Default: the framework's logger. */
  logger?: Logger;
}

/** What {@link createServerWorker} returns. */
export interface ServerWorker {
  /** Settles once the worker takes wake-ups and has woken the pool for unfinished runs. */
  readonly ready: Promise<void>;
  /**
   * Stops taking wake-ups, drains executing runs as `FrameworkServer.close` does (they stay
   * `running` and continue from their last checkpoint), gives their threads back, wakes the
   * pool for them, and closes what the worker opened.
   */
  close(): Promise<void>;
}

/**
 * A worker of a server's run queue: executes the runs server instances created with
 * `queue: serverQueue(...)`, exactly as a server executes its own (stream modes, interrupts,
 * multitask strategies, cancels), each thread under its lease, with checkpoints and events
 * fenced by it. A run that waits on an interrupt frees its slot; the `command.resume` run
 * submitted later on any instance wakes some worker.
 *
 * @example
 * const worker = createServerWorker({
 *   graphs: { advisory: advisoryCrew },
 *   queue: { redis: process.env.REDIS_URL!, postgres: process.env.DATABASE_URL! },
 *   concurrency: 4,
 * });
 * await worker.ready;
 * process.once("SIGTERM", () => void worker.close());
 */
export function createServerWorker(options: ServerWorkerOptions): ServerWorker {
  const logger = withRedaction(options.logger ?? options.queue.logger ?? getDefaultLogger());
  const queue = serverQueue({ ...options.queue, logger });
  const { store } = queue;
  const executor = createRunExecutor({
    ...(options.agents ? { agents: options.agents } : {}),
    ...(options.graphs ? { graphs: options.graphs } : {}),
    store,
    checkpointer: store.leaseFencedCheckpointer(),
    dispatcher: queue,
    logger,
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    webhookDelivery: (delivery) =>
      new QueueWebhookDelivery({
        connection: queue.connection,
        queueName: webhookQueueName(queue.queueName),
        delivery,
        concurrency: WEBHOOK_CONCURRENCY,
      }),
    ...(options.meterProvider ? { meterProvider: options.meterProvider } : {}),
  });
  const bull = new Worker<WakeJobData>(
    queue.queueName,
    (job) => executor.executeThread(job.data.threadId),
    {
      connection: queue.connection,
      concurrency: options.concurrency ?? DEFAULT_WORKER_CONCURRENCY,
      autorun: false,
    },
  );
  bull.on("error", (error) =>
    logger.warn(`server-queue: Redis error on worker of ${queue.queueName}: ${error.message}`),
  );
  const sweep = () =>
    executor
      .recover()
      .catch((error: unknown) =>
        logger.warn(`server-queue: looking for unfinished runs failed: ${String(error)}`),
      );
  const timer = setInterval(sweep, options.recoveryIntervalMs ?? DEFAULT_RECOVERY_INTERVAL_MS);
  timer.unref();
  const ready = (async () => {
    await store.setup();
    await executor.start();
    void bull
      .run()
      .catch((error: unknown) =>
        logger.error(`server-queue: the worker stopped: ${String(error)}`),
      );
    await bull.waitUntilReady();
  })();
  ready.catch((error: unknown) =>
    logger.error(`server-queue: the worker did not start: ${String(error)}`),
  );
  let closed: Promise<void> | undefined;
  return {
    ready,
    close() {
      closed ??= (async () => {
        clearInterval(timer);
        await ready.catch(() => undefined);
        const taking = bull.close();
        const left = new Set(executor.executingThreads());
        await executor.close(options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
        await taking;
        // The threads left go back, then the pool is woken for them.
        await store.close();
        const unfinished = left.size === 0 ? [] : await store.unfinishedRuns().catch(() => []);
        for (const run of unfinished) {
          if (!left.delete(run.threadId)) continue;
          await queue.wake(run).catch(() => undefined);
        }
        await queue.close();
      })();
      return closed;
    },
  };
}
