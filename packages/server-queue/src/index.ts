export {
  type PostgresServerQueue,
  serverQueue,
  type WakeJobData,
} from "./server-queue.js";
export {
  DEFAULT_SERVER_QUEUE_NAME,
  type ServerQueueConnection,
} from "./server-queue-connection.js";
export {
  createServerWorker,
  DEFAULT_WORKER_CONCURRENCY,
  type ServerWorker,
  type ServerWorkerOptions,
} from "./server-worker.js";
