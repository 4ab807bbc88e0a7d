import { PostgresSaver } from "@framework/checkpoint-postgres";
import { getDefaultLogger, type Logger, withRedaction } from "@framework/core";
import type { RunRecord, ServerQueue } from "@framework/server";
import type { CronRunner, CronScheduler, WebhookDeliveryFactory } from "@framework/server/internal";
import { PostgresServerStore } from "@framework/server-postgres";
import { type ConnectionOptions, Queue } from "bullmq";
import { QueueCronScheduler } from "./queue-cron-scheduler.js";
import { QueueWebhookDelivery } from "./queue-webhook-delivery.js";
import {
  cronQueueName,
  DEFAULT_CRON_RECONCILE_INTERVAL_MS,
  DEFAULT_SERVER_QUEUE_NAME,
  type ServerQueueConnection,
  webhookQueueName,
} from "./server-queue-connection.js";

/**
 * Wake-ups of one run and attempt within this long are one job: racing instances and
 * workers' sweeps add it once, and a job stuck in a paused worker does not keep the next
 * sweep from waking another one.
 */
const WAKE_WINDOW_MS = 5_000;

/** What a wake-up job carries: only the thread; the runs are read from Postgres. */
export interface WakeJobData {
  /** The thread with pending or running runs. */
  readonly threadId: string;
}

/** A {@link serverQueue}: the `ServerQueue` a server takes, over PostgreSQL and BullMQ. */
export interface PostgresServerQueue extends ServerQueue {
  /** Threads, runs and their events, shared by every instance and worker. */
  readonly store: PostgresServerStore;
  /** The saver of `store`'s schema: opened on the `postgres` URL, or the one given. */
  readonly checkpointer: PostgresSaver;
  /** The BullMQ queue's name. */
  readonly queueName: string;
  /** BullMQ's connection options, for the workers of this queue. */
  readonly connection: ConnectionOptions;
  /**
   * Hands the webhooks of runs an instance ends (a pending run it cancels) to the queue's
   * webhook queue ({@link webhookQueueName}), where the workers attempt them.
   */
  readonly webhookDelivery: WebhookDeliveryFactory;
  /**
   * Fires crons' ticks from BullMQ job schedulers on the queue's cron queue
   * ({@link cronQueueName}), one per enabled cron, whose jobs the instances take.
   */
  cronScheduler(runner: CronRunner, logger: Logger): CronScheduler;
}

function redisConnection(redis: string | ConnectionOptions): ConnectionOptions {
  return typeof redis === "string" ? { url: redis } : redis;
}

/**
 * Runs executed by a pool of workers ({@link createServerWorker}): pass it as `createServer`'s
 * `queue`, and the server creates runs in PostgreSQL and wakes a worker through a BullMQ job
 * instead of executing them. PostgreSQL is the truth and a job only a wake-up, so a Redis that
 * restarts empty loses no run: the workers' recovery sweep finds it.
 *
 * @example
 * const server = createServer({
 *   graphs: { advisory: advisoryCrew },
 *   queue: serverQueue({ redis: process.env.REDIS_URL!, postgres: process.env.DATABASE_URL! }),
 *   auth: jwtAuth({ jwksURL, issuer, audience }),
 * });
 */
export function serverQueue(connection: ServerQueueConnection): PostgresServerQueue {
  const logger: Logger = withRedaction(connection.logger ?? getDefaultLogger());
  const ownSaver =
    typeof connection.postgres === "string"
      ? new PostgresSaver({
          connectionString: connection.postgres,
          ...(connection.schema === undefined ? {} : { schema: connection.schema }),
        })
      : undefined;
  const checkpointer = ownSaver ?? (connection.postgres as PostgresSaver);
  const store = new PostgresServerStore({
    checkpointer,
    ...(connection.leaseTimeoutMs === undefined
      ? {}
      : { leaseTimeoutMs: connection.leaseTimeoutMs }),
  });
  const queueName = connection.queueName ?? DEFAULT_SERVER_QUEUE_NAME;
  const redis = redisConnection(connection.redis);
  let bull: Queue<WakeJobData> | undefined;
  const jobs = () => {
    if (!bull) {
      bull = new Queue<WakeJobData>(queueName, { connection: redis });
      // Without a listener an unreachable Redis would crash the process; BullMQ reconnects.
      bull.on("error", (error) =>
        logger.warn(`server-queue: Redis error on queue ${queueName}: ${error.message}`),
      );
    }
    return bull;
  };
  let closed: Promise<void> | undefined;
  return {
    store,
    checkpointer,
    queueName,
    connection: redis,
    webhookDelivery: (delivery) =>
      new QueueWebhookDelivery({
        connection: redis,
        queueName: webhookQueueName(queueName),
        delivery,
      }),
    cronScheduler: (runner, cronLogger) =>
      new QueueCronScheduler({
        connection: redis,
        queueName: cronQueueName(queueName),
        store,
        runner,
        logger: cronLogger,
        reconcileIntervalMs:
          connection.cronReconcileIntervalMs ?? DEFAULT_CRON_RECONCILE_INTERVAL_MS,
      }),
    async wake(run: Pick<RunRecord, "runId" | "threadId" | "attempt">) {
      const window = Math.floor(Date.now() / WAKE_WINDOW_MS);
      await jobs().add(
        "wake",
        { threadId: run.threadId },
        {
          jobId: `wake-${run.runId}-${run.attempt}-${window}`,
          removeOnComplete: true,
          removeOnFail: true,
          attempts: 3,
          backoff: { type: "exponential", delay: 500 },
        },
      );
    },
    close() {
      closed ??= (async () => {
        await bull?.close();
        await store.close();
        await ownSaver?.close();
      })();
      return closed;
    },
  };
}
