import type {
  CronRecord,
  CronSearch,
  JsonObject,
  RunEventRecord,
  RunRecord,
  ThreadRecord,
  ThreadSearch,
  ThreadStatus,
} from "./server-store.js";

/** The column each thread search sorts by. */
export const threadSortColumns: Readonly<Record<ThreadSearch["sortBy"], string>> = {
  thread_id: "thread_id",
  status: "status",
  created_at: "created_at",
  updated_at: "updated_at",
};

/** The column each cron search sorts by. */
export const cronSortColumns: Readonly<Record<CronSearch["sortBy"], string>> = {
  cron_id: "cron_id",
  assistant_id: "assistant_id",
  thread_id: "thread_id",
  created_at: "created_at",
  updated_at: "updated_at",
  next_run_date: "next_run_date",
};

/**
 * How a database hands back what the rows below hold in a type of its own: times (ISO text in
 * SQLite, `Date`s from node-postgres), flags (0 or 1 in SQLite) and counters (numbers, or a
 * `bigint` column's text).
 */
export interface RowTypes<Time, Flag, Counter> {
  time(value: Time): string;
  flag(value: Flag): boolean;
  counter(value: Counter): number;
}

/** A `server_threads` row. */
export interface ThreadRow<Time, Flag> {
  thread_id: string;
  owner: string;
  created_at: Time;
  updated_at: Time;
  metadata: string;
  status: string;
  assistant_id: string | null;
  head: string | null;
  temporary: Flag;
}

/** A `server_runs` row. */
export interface RunRow<Time> {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  owner: string;
  status: string;
  created_at: Time;
  updated_at: Time;
  metadata: string;
  multitask_strategy: string;
  request: string;
  error: string | null;
  attempt: number;
  checkpoint_before: string | null;
  cancel: string | null;
}

/** A `server_run_events` row. */
export interface EventRow<Counter> {
  run_id: string;
  seq: Counter;
  event: string;
  data: string;
}

/** A `server_crons` row. */
export interface CronRow<Time, Flag> {
  cron_id: string;
  owner: string;
  assistant_id: string;
  thread_id: string | null;
  schedule: string;
  timezone: string | null;
  end_time: Time | null;
  enabled: Flag;
  next_run_date: Time | null;
  on_run_completed: string;
  run: string;
  metadata: string;
  created_at: Time;
  updated_at: Time;
}

/**
 * The records of the server's tables read from rows, whatever the database: one mapping for
 * every store, given how its driver types times, flags and counters.
 */
export function storeRows<Time, Flag, Counter>(types: RowTypes<Time, Flag, Counter>) {
  const { time, flag, counter } = types;
  const optionalTime = (value: Time | null) => (value === null ? null : time(value));
  return {
    thread: (row: ThreadRow<Time, Flag>): ThreadRecord => ({
      threadId: row.thread_id,
      owner: row.owner,
      createdAt: time(row.created_at),
      updatedAt: time(row.updated_at),
      metadata: JSON.parse(row.metadata) as JsonObject,
      status: row.status as ThreadStatus,
      assistantId: row.assistant_id,
      head: row.head,
      temporary: flag(row.temporary),
    }),
    run: (row: RunRow<Time>): RunRecord => ({
      runId: row.run_id,
      threadId: row.thread_id,
      assistantId: row.assistant_id,
      owner: row.owner,
      status: row.status as RunRecord["status"],
      createdAt: time(row.created_at),
      updatedAt: time(row.updated_at),
      metadata: JSON.parse(row.metadata) as JsonObject,
      multitaskStrategy: row.multitask_strategy as RunRecord["multitaskStrategy"],
      request: JSON.parse(row.request) as RunRecord["request"],
      error: row.error === null ? null : (JSON.parse(row.error) as RunRecord["error"]),
      attempt: row.attempt,
      checkpointBefore: row.checkpoint_before,
      cancel: row.cancel as RunRecord["cancel"],
    }),
    event: (row: EventRow<Counter>): RunEventRecord => ({
      runId: row.run_id,
      seq: counter(row.seq),
      event: row.event,
      data: JSON.parse(row.data),
    }),
    cron: (row: CronRow<Time, Flag>): CronRecord => ({
      cronId: row.cron_id,
      owner: row.owner,
      assistantId: row.assistant_id,
      threadId: row.thread_id,
      schedule: row.schedule,
      timezone: row.timezone,
      endTime: optionalTime(row.end_time),
      enabled: flag(row.enabled),
      nextRunDate: optionalTime(row.next_run_date),
      onRunCompleted: row.on_run_completed as CronRecord["onRunCompleted"],
      run: JSON.parse(row.run) as CronRecord["run"],
      metadata: JSON.parse(row.metadata) as JsonObject,
      createdAt: time(row.created_at),
      updatedAt: time(row.updated_at),
    }),
  };
}
