export type { CronTickJobData } from "./queue-cron-scheduler.js";
export type { WebhookJobData } from "./queue-webhook-delivery.js";
export {
  type PostgresServerQueue,
  serverQueue,
  type WakeJobData,
} from "./server-queue.js";
export {
  cronQueueName,
  DEFAULT_CRON_RECONCILE_INTERVAL_MS,
  DEFAULT_SERVER_QUEUE_NAME,
  type ServerQueueConnection,
  webhookQueueName,
} from "./server-queue-connection.js";
export {
  createServerWorker,
  DEFAULT_WORKER_CONCURRENCY,
  type ServerWorker,
  type ServerWorkerOptions,
} from "./server-worker.js";
