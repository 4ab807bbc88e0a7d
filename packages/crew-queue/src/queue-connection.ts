import type { PostgresSaver } from "@framework/checkpoint-postgres";
import type { Logger } from "@framework/core";
import type { ConnectionOptions } from "bullmq";

/** The BullMQ queue crews run on unless told otherwise. */
export const DEFAULT_QUEUE_NAME = "crew-runs";

/**
 * What a {@link CrewQueue} and a {@link CrewWorker} share: where the queue and the truth live.
 * The Postgres saver is `checkpointer`, the name `graph.compile` and `CrewAgent` use; `saver`
 * is its deprecated name.
 */
export type CrewQueueConnection = {
  /** Redis, as BullMQ takes it: `{ url: "redis://127.0.0.1:6379" }`, host/port, or a client. */
  connection: ConnectionOptions;
  /** The BullMQ queue's name; API processes and workers must agree. Default `"crew-runs"`. */
  queueName?: string;
  /** Lines naming run and thread (never input, state or secrets). Default: silent. */
  logger?: Logger;
} & (
  | {
      /**
       * The Postgres saver: runs are kept in its schema (`crew_runs`) beside the checkpoints,
       * and its pool serves both (plus one connection per process for `LISTEN`).
       */
      checkpointer: PostgresSaver;
      saver?: undefined;
    }
  | {
      checkpointer?: undefined;
      /**
       * @deprecated Use `checkpointer` (the same saver, the name `graph.compile` uses); `saver`
       * warns once per process and goes away in the next minor version.
       */
      saver: PostgresSaver;
    }
);

/** BullMQ's job id of a run: deterministic, so adding a run twice is one job. */
export function jobIdOf(runId: string): string {
  return `run-${runId}`;
}

/** The data of a run's job: only its id; everything else is read from Postgres. */
export interface RunJobData {
  readonly runId: string;
}
