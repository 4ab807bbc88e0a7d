import type { PostgresSaver } from "@framework/checkpoint-postgres";
import type { Logger } from "@framework/core";
import type { ConnectionOptions } from "bullmq";

/** How often an instance reconciles the crons' job schedulers with the store, by default. */
export const DEFAULT_CRON_RECONCILE_INTERVAL_MS = 60_000;

/** The BullMQ queue server runs wake workers on unless told otherwise. */
export const DEFAULT_SERVER_QUEUE_NAME = "server-runs";

/** The BullMQ queue of the webhooks of a server queue's runs: `<queueName>-webhooks`. */
export function webhookQueueName(queueName: string): string {
  return `${queueName}-webhooks`;
}

/** The BullMQ queue of a server queue's cron ticks (its job schedulers): `<queueName>-crons`. */
export function cronQueueName(queueName: string): string {
  return `${queueName}-crons`;
}

/**
 * Where a queue's instances and workers meet: Redis for the wake-ups, PostgreSQL for the truth
 * (threads, runs, events, checkpoints). Instances and workers must agree on all of it.
 */
export interface ServerQueueConnection {
  /** Redis, as a URL (`redis://127.0.0.1:6379`) or BullMQ's connection options. */
  redis: string | ConnectionOptions;
  /**
   * PostgreSQL, as a URL (a `PostgresSaver` is opened on it and closed with the queue), or a
   * `PostgresSaver` of yours (yours to close, after the queue).
   */
  postgres: string | PostgresSaver;
  /** With a `postgres` URL: the schema of the tables. Default: `PostgresSaver`'s. */
  schema?: string;
  /** The BullMQ queue's name. Default {@link DEFAULT_SERVER_QUEUE_NAME}. */
  queueName?: string;
  /**
   * How long a process that stopped answering keeps its thread leases (see
   * `PostgresServerStore`'s `leaseTimeoutMs`). Default 30 s.
   */
  leaseTimeoutMs?: number;
  /**
   * How often each instance checks that every cron of the store has its BullMQ job scheduler
   * (and no deleted cron keeps one), besides at start: a Redis that restarted empty while the
   * instances ran gets the schedules back within this long. Default
   * {@link DEFAULT_CRON_RECONCILE_INTERVAL_MS}.
   */
  cronReconcileIntervalMs?: number;
  /** Receives warnings (Redis unreachable, a wake-up not sent). Default: the framework's logger. */
  logger?: Logger;
}
