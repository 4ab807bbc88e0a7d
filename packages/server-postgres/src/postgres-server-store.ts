import { randomUUID } from "node:crypto";
import type { PostgresSaver } from "@framework/checkpoint-postgres";
import { internalsOf, type PostgresSaverInternals } from "@framework/checkpoint-postgres/internal";
import type { Checkpointer } from "@framework/graph";
import type {
  CronFilter,
  CronPatch,
  CronRecord,
  CronSearch,
  JsonObject,
  RunCounts,
  RunEventInput,
  RunEventRecord,
  RunInsertion,
  RunLimits,
  RunList,
  RunPatch,
  RunRecord,
  RunStart,
  RunUpdateOptions,
  RunWatcher,
  ServerStore,
  ThreadRecord,
  ThreadSearch,
  ThreadStatus,
} from "@framework/server";
import {
  cronSortColumns,
  type CronRow as StoreCronRow,
  type EventRow as StoreEventRow,
  type RunRow as StoreRunRow,
  type ThreadRow as StoreThreadRow,
  storeRows,
  threadSortColumns,
} from "@framework/server/internal";
import type pg from "pg";
import { ThreadLeaseLostError } from "./error/thread-lease-lost-error.js";
import { changePayload, InstanceLink } from "./instance-link.js";
import { migrateServerSchema, type ServerTables, serverTablesIn } from "./server-schema.js";

/** How long a paused process keeps its thread leases, by default. */
export const DEFAULT_LEASE_TIMEOUT_MS = 30_000;

/** Options of {@link PostgresServerStore}. */
export interface PostgresServerStoreOptions {
  /**
   * The server's `PostgresSaver`: the store keeps its tables in the saver's schema, beside the
   * checkpoints, and queries through the saver's pool (so its typed errors and password
   * redaction apply).
   */
  checkpointer: PostgresSaver;
  /**
   * How long a process that stopped answering (paused by SIGSTOP, a debugger or a frozen VM,
   * whose TCP connection the kernel keeps alive) keeps its thread leases before Postgres ends
   * its session and another process may take its runs over. A live process renews them three
   * times as often. Default {@link DEFAULT_LEASE_TIMEOUT_MS}.
   */
  leaseTimeoutMs?: number;
}

/** A thread this store holds: its lease's token, and how many times it was taken. */
interface HeldLease {
  readonly token: string;
  count: number;
}

// node-postgres gives timestamptz columns as Dates, booleans as booleans, bigints as text.
type ThreadRow = StoreThreadRow<Date, boolean>;
type RunRow = StoreRunRow<Date>;
type EventRow = StoreEventRow<string | number>;
type CronRow = StoreCronRow<Date, boolean>;
const {
  thread: toThread,
  run: toRun,
  event: toEvent,
  cron: toCron,
} = storeRows({
  time: (value: Date) => value.toISOString(),
  flag: (value: boolean) => value,
  counter: (value: string | number) => Number(value),
});

const threadColumns =
  "thread_id, owner, created_at, updated_at, metadata, status, assistant_id, head, temporary";
const runColumns = `run_id, thread_id, assistant_id, owner, status, created_at, updated_at,
  metadata, multitask_strategy, request, error, attempt, checkpoint_before, cancel`;
const unfinished = "('pending', 'running')";
const ended = "('success', 'error', 'timeout', 'interrupted')";

const cronColumns = `cron_id, owner, assistant_id, thread_id, schedule, timezone, end_time,
  enabled, next_run_date, on_run_completed, run, metadata, created_at, updated_at`;

/** The WHERE clause of a cron filter, `owner` first, with its values numbered from $1. */
function cronWhere(owner: string, filter: CronFilter & { enabled?: boolean }) {
  const values: unknown[] = [owner];
  const where = ["owner = $1"];
  const parameter = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filter.assistantId !== undefined)
    where.push(`assistant_id = ${parameter(filter.assistantId)}`);
  if (filter.threadId !== undefined) where.push(`thread_id = ${parameter(filter.threadId)}`);
  if (filter.enabled !== undefined) where.push(`enabled = ${parameter(filter.enabled)}`);
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    // jsonb equality compares types and nested values, so true never matches 1 or "true".
    where.push(
      `metadata::jsonb -> ${parameter(key)}::text = ${parameter(JSON.stringify(value))}::jsonb`,
    );
  }
  return { where, values, parameter };
}

/**
 * `@framework/server`'s store in PostgreSQL: threads, runs, run event logs and crons in the schema of
 * the server's `PostgresSaver`, so any number of server instances share them. Every method
 * that takes an `owner` filters by it in its SQL; a run's events are numbered by a counter on
 * the run's row, advanced in the statement that inserts them, so writers on any instance
 * number them without a gap or a repeat; a `reject` run is inserted under a per-thread
 * transaction lock, so of racing instances exactly one gets the thread.
 *
 * @example
 * const checkpointer = new PostgresSaver({ connectionString: process.env.DATABASE_URL! });
 * const server = createServer({
 *   agents: { research },
 *   checkpointer,
 *   store: new PostgresServerStore({ checkpointer }),
 * });
 */
export class PostgresServerStore implements ServerStore {
  /** The Postgres schema holding the tables: the checkpointer's. */
  readonly schema: string;
  readonly #postgres: PostgresSaverInternals;
  readonly #tables: ServerTables;
  /** The `LISTEN` channel of this schema's run changes. */
  readonly #channel: string;
  readonly #link: InstanceLink;
  readonly #saver: PostgresSaver;
  readonly #leases = new Map<string, HeldLease>();
  /** The last taking or giving back of each thread's lease under way, to queue the next. */
  readonly #leaseTurns = new Map<string, Promise<void>>();
  /** This store executes runs (it took a lease): it logs events only under its leases. */
  #leasing = false;
  #ready: Promise<void> | undefined;

  /** @throws ConfigurationError when `checkpointer` is not a `PostgresSaver`. */
  constructor(options: PostgresServerStoreOptions) {
    this.#postgres = internalsOf(options.checkpointer);
    this.schema = options.checkpointer.schema;
    this.#tables = serverTablesIn(this.schema);
    this.#channel = `server_runs_${this.schema}`.slice(0, 63);
    this.#saver = options.checkpointer;
    this.#link = new InstanceLink(this.#postgres.pool, this.#channel, () => this.setup(), {
      leaseTimeoutMs: options.leaseTimeoutMs ?? DEFAULT_LEASE_TIMEOUT_MS,
      // The session's locks are gone: no write may pass as this store's any more.
      onLost: () => this.#leases.clear(),
    });
  }

  /**
   * Creates or migrates the tables (and the checkpointer's), idempotently and safely when many
   * instances start at once. Every other method calls it first, once; call it yourself to fail
   * fast at startup.
   *
   * @throws ServerSchemaVersionError when a newer version of this package migrated the schema.
   */
  setup(): Promise<void> {
    this.#ready ??= this.#postgres
      .transaction("server setup", (query) => migrateServerSchema(query, this.schema))
      .catch((error: unknown) => {
        this.#ready = undefined;
        throw error;
      });
    return this.#ready;
  }

  async createThread(
    thread: Pick<ThreadRecord, "threadId" | "owner" | "metadata"> & { temporary?: boolean },
    { ifExists }: { ifExists: "raise" | "do_nothing" },
  ): Promise<ThreadRecord | "taken"> {
    const { threads } = this.#tables;
    const [created] = await this.#rows<ThreadRow>(
      "create thread",
      `INSERT INTO ${threads} (${threadColumns})
       VALUES ($1, $2, clock_timestamp(), clock_timestamp(), $3, 'idle', NULL, NULL, $4)
       ON CONFLICT (thread_id) DO NOTHING RETURNING ${threadColumns}`,
      [thread.threadId, thread.owner, JSON.stringify(thread.metadata), thread.temporary === true],
    );
    if (created) return toThread(created);
    if (ifExists === "raise") return "taken";
    const existing = await this.getThread(thread.owner, thread.threadId);
    return existing ?? "taken";
  }

  async getThread(owner: string, threadId: string): Promise<ThreadRecord | undefined> {
    const [row] = await this.#rows<ThreadRow>(
      "read thread",
      `SELECT ${threadColumns} FROM ${this.#tables.threads} WHERE thread_id = $1 AND owner = $2`,
      [threadId, owner],
    );
    return row && toThread(row);
  }

  async searchThreads(owner: string, search: ThreadSearch): Promise<ThreadRecord[]> {
    const values: unknown[] = [owner];
    const where = ["owner = $1", "NOT temporary"];
    const parameter = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    if (search.status) where.push(`status = ${parameter(search.status)}`);
    if (search.ids) where.push(`thread_id = ANY(${parameter([...search.ids])}::text[])`);
    for (const [key, value] of Object.entries(search.metadata ?? {})) {
      // jsonb equality compares types and nested values, so true never matches 1 or "true".
      where.push(
        `metadata::jsonb -> ${parameter(key)}::text = ${parameter(JSON.stringify(value))}::jsonb`,
      );
    }
    const direction = search.sortOrder === "asc" ? "ASC" : "DESC";
    const rows = await this.#rows<ThreadRow>(
      "search threads",
      `SELECT ${threadColumns} FROM ${this.#tables.threads} WHERE ${where.join(" AND ")}
       ORDER BY ${threadSortColumns[search.sortBy]} ${direction}, position ${direction}
       LIMIT ${parameter(search.limit)} OFFSET ${parameter(search.offset)}`,
      values,
    );
    return rows.map(toThread);
  }

  async patchThread(
    owner: string,
    threadId: string,
    patch: { metadata: JsonObject },
  ): Promise<ThreadRecord | undefined> {
    await this.setup();
    const { threads } = this.#tables;
    // Merged in JS, so the metadata keeps its exact JSON; the row lock makes a concurrent
    // patch wait and merge on top of this one.
    return this.#postgres.transaction("patch thread", async (query) => {
      const [row] = await query<ThreadRow>(
        `SELECT ${threadColumns} FROM ${threads} WHERE thread_id = $1 AND owner = $2 FOR UPDATE`,
        [threadId, owner],
      );
      if (!row) return undefined;
      const metadata = { ...(JSON.parse(row.metadata) as JsonObject), ...patch.metadata };
      const [updated] = await query<ThreadRow>(
        `UPDATE ${threads} SET metadata = $2, updated_at = clock_timestamp()
         WHERE thread_id = $1 RETURNING ${threadColumns}`,
        [threadId, JSON.stringify(metadata)],
      );
      return updated && toThread(updated);
    });
  }

  async deleteThread(owner: string, threadId: string): Promise<boolean> {
    await this.setup();
    const { threads, runs, events } = this.#tables;
    return this.#postgres.transaction("delete thread", async (query) => {
      const deleted = await query(
        `DELETE FROM ${threads} WHERE thread_id = $1 AND owner = $2 RETURNING thread_id`,
        [threadId, owner],
      );
      if (deleted.length === 0) return false;
      const gone = await query<{ run_id: string }>(
        `DELETE FROM ${runs} WHERE thread_id = $1 RETURNING run_id`,
        [threadId],
      );
      const runIds = gone.map((run) => run.run_id);
      await query(`DELETE FROM ${events} WHERE run_id = ANY($1::text[])`, [runIds]);
      await query(`DELETE FROM ${this.#tables.crons} WHERE thread_id = $1`, [threadId]);
      // Followers of the thread's runs learn they are gone when this commits.
      await query("SELECT pg_notify($1, 'r:' || id) FROM unnest($2::text[]) AS id", [
        this.#channel,
        runIds,
      ]);
      return true;
    });
  }

  async setThreadStatus(
    threadId: string,
    status: ThreadStatus,
    assistantId?: string,
  ): Promise<void> {
    await this.#rows(
      "set thread status",
      `UPDATE ${this.#tables.threads}
       SET status = $2, updated_at = clock_timestamp(), assistant_id = coalesce($3, assistant_id)
       WHERE thread_id = $1`,
      [threadId, status, assistantId ?? null],
    );
  }

  async setThreadHead(threadId: string, head: string | null): Promise<void> {
    await this.#rows(
      "set thread head",
      `UPDATE ${this.#tables.threads} SET head = $2 WHERE thread_id = $1`,
      [threadId, head],
    );
  }

  async insertRun(
    run: Omit<RunRecord, "createdAt" | "updatedAt">,
    limits?: RunLimits,
    start?: RunStart,
  ): Promise<RunInsertion> {
    await this.setup();
    const { runs, threads } = this.#tables;
    return this.#postgres.transaction("insert run", async (query): Promise<RunInsertion> => {
      // An insertion within limits takes its owner's lock first (always before the thread's,
      // so no two insertions wait on each other), so the owner's runs counted below are all
      // there are until the insert commits.
      if (limits) {
        await query("SELECT pg_advisory_xact_lock(hashtext($1))", [
          `@framework/server-postgres:${this.schema}:owner:${run.owner}`,
        ]);
      }
      // Every insertion on the thread takes this lock first, so the inflight runs read below
      // are all there are until the insert commits.
      await query("SELECT pg_advisory_xact_lock(hashtext($1))", [
        this.#threadLock("insert", run.threadId),
      ]);
      const inflight = (
        await query<RunRow>(
          `SELECT ${runColumns} FROM ${runs}
           WHERE thread_id = $1 AND status IN ${unfinished} ORDER BY position`,
          [run.threadId],
        )
      ).map(toRun);
      if (run.multitaskStrategy === "reject" && inflight.length > 0) {
        return { run: undefined, inflight };
      }
      if (limits) {
        const [counts] = await query<{ pending: string; running: string }>(
          `SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
             count(*) FILTER (WHERE status = 'running') AS running
           FROM ${runs} WHERE status IN ${unfinished} AND owner = $1`,
          [run.owner],
        );
        const pending = Number(counts?.pending ?? 0);
        const active = pending + Number(counts?.running ?? 0);
        if (limits.maxActive !== undefined && active >= limits.maxActive) {
          return { run: undefined, inflight, overLimit: { limit: "active", current: active } };
        }
        if (limits.maxPending !== undefined && pending >= limits.maxPending) {
          return { run: undefined, inflight, overLimit: { limit: "pending", current: pending } };
        }
      }
      const started = start !== undefined && inflight.length === 0;
      if (started) {
        await query(
          `UPDATE ${threads} SET status = 'busy', updated_at = clock_timestamp(), assistant_id = $2
           WHERE thread_id = $1`,
          [run.threadId, run.assistantId],
        );
      }
      const [row] = await query<RunRow>(
        `INSERT INTO ${runs} (${runColumns})
         VALUES ($1, $2, $3, $4, $5, clock_timestamp(), clock_timestamp(),
           $6, $7, $8, $9, $10, $11, $12)
         RETURNING ${runColumns}`,
        [
          run.runId,
          run.threadId,
          run.assistantId,
          run.owner,
          started ? "running" : run.status,
          JSON.stringify(run.metadata),
          run.multitaskStrategy,
          JSON.stringify(run.request),
          run.error === null ? null : JSON.stringify(run.error),
          run.attempt,
          started ? start.checkpointBefore : run.checkpointBefore,
          run.cancel,
        ],
      );
      return { run: toRun(row!), inflight };
    });
  }

  async getRun(owner: string, runId: string, threadId?: string): Promise<RunRecord | undefined> {
    const [row] = await this.#rows<RunRow>(
      "read run",
      `SELECT ${runColumns} FROM ${this.#tables.runs}
       WHERE run_id = $1 AND owner = $2 AND ($3::text IS NULL OR thread_id = $3)`,
      [runId, owner, threadId ?? null],
    );
    return row && toRun(row);
  }

  async listRuns(owner: string, threadId: string, list: RunList): Promise<RunRecord[]> {
    const rows = await this.#rows<RunRow>(
      "list runs",
      `SELECT ${runColumns} FROM ${this.#tables.runs}
       WHERE thread_id = $1 AND owner = $2 AND ($3::text IS NULL OR status = $3)
       ORDER BY position DESC LIMIT $4 OFFSET $5`,
      [threadId, owner, list.status ?? null, list.limit, list.offset],
    );
    return rows.map(toRun);
  }

  async updateRun(
    runId: string,
    patch: RunPatch,
    { thread, events = [] }: RunUpdateOptions = {},
  ): Promise<RunRecord | undefined> {
    if (events.length === 0) {
      const [row] = await this.#rows<RunRow>(
        "update run",
        ...this.#runUpdate(runId, patch, thread),
      );
      return row && toRun(row);
    }
    await this.setup();
    return this.#postgres.transaction("end run", async (query) => {
      await query(...this.#eventsAppend(runId, events));
      const [row] = await query<RunRow>(...this.#runUpdate(runId, patch, thread));
      return row && toRun(row);
    });
  }

  /** The statement changing a run and, with `thread`, its thread's status; it notifies. */
  #runUpdate(
    runId: string,
    patch: RunPatch,
    thread: RunUpdateOptions["thread"],
  ): [text: string, values: unknown[]] {
    const { runs, threads } = this.#tables;
    // One statement: the run's change and its thread's status commit together.
    return [
      `WITH run AS (
         UPDATE ${runs} SET
           updated_at = clock_timestamp(),
           status = coalesce($2, status),
           error = CASE WHEN $3 THEN $4 ELSE error END,
           attempt = coalesce($5, attempt),
           cancel = CASE WHEN $6 THEN $7 ELSE cancel END,
           checkpoint_before = CASE WHEN $12 THEN $13 ELSE checkpoint_before END,
           ended_at = CASE WHEN coalesce($2, status) IN ${ended} THEN clock_timestamp() END
         WHERE run_id = $1
         RETURNING ${runColumns}
       ), thread AS (
         UPDATE ${threads} SET
           status = $9, updated_at = clock_timestamp(), assistant_id = coalesce($10, assistant_id)
         WHERE $8 AND thread_id = (SELECT thread_id FROM run)
       )
       SELECT run.*, pg_notify($11, 'r:' || run_id) FROM run`,
      [
        runId,
        patch.status ?? null,
        patch.error !== undefined,
        patch.error == null ? null : JSON.stringify(patch.error),
        patch.attempt ?? null,
        patch.cancel !== undefined,
        patch.cancel ?? null,
        thread !== undefined,
        thread?.status ?? null,
        thread?.assistantId ?? null,
        this.#channel,
        patch.checkpointBefore !== undefined,
        patch.checkpointBefore ?? null,
      ],
    ];
  }

  async deleteRun(runId: string): Promise<void> {
    await this.#rows(
      "delete run",
      `WITH gone AS (DELETE FROM ${this.#tables.runs} WHERE run_id = $1 RETURNING run_id),
       gone_events AS (DELETE FROM ${this.#tables.events} WHERE run_id = $1)
       SELECT pg_notify($2, 'r:' || run_id) FROM gone`,
      [runId, this.#channel],
    );
  }

  async countRuns(owner?: string): Promise<RunCounts> {
    const [row] = await this.#rows<{ pending: string; running: string }>(
      "count runs",
      `SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
         count(*) FILTER (WHERE status = 'running') AS running
       FROM ${this.#tables.runs}
       WHERE status IN ${unfinished} AND ($1::text IS NULL OR owner = $1)`,
      [owner ?? null],
    );
    return { pending: Number(row?.pending ?? 0), running: Number(row?.running ?? 0) };
  }

  async nextPendingRun(threadId: string): Promise<RunRecord | undefined> {
    const [row] = await this.#rows<RunRow>(
      "next pending run",
      `SELECT ${runColumns} FROM ${this.#tables.runs}
       WHERE thread_id = $1 AND status = 'pending' ORDER BY position LIMIT 1`,
      [threadId],
    );
    return row && toRun(row);
  }

  async unfinishedRuns(threadId?: string): Promise<RunRecord[]> {
    const rows = await this.#rows<RunRow>(
      "unfinished runs",
      `SELECT ${runColumns} FROM ${this.#tables.runs}
       WHERE status IN ${unfinished}${threadId === undefined ? "" : " AND thread_id = $1"}
       ORDER BY position`,
      threadId === undefined ? [] : [threadId],
    );
    return rows.map(toRun);
  }

  async appendEvents(runId: string, events: readonly RunEventInput[]): Promise<RunEventRecord[]> {
    if (events.length === 0) return [];
    const [row] = await this.#rows<{ first: string | null }>(
      "append events",
      ...this.#eventsAppend(runId, events),
    );
    // A run that is gone (deleted meanwhile) logs nothing.
    if (row?.first == null) return [];
    const first = Number(row.first);
    return events.map(({ event, data }, index) => ({
      runId,
      seq: first + index,
      event,
      data: data ?? null,
    }));
  }

  /** The statement logging events of a run, answering the first one's `seq` as `first`. */
  #eventsAppend(
    runId: string,
    events: readonly RunEventInput[],
  ): [text: string, values: unknown[]] {
    const { runs, events: table, leases } = this.#tables;
    // The counter's row lock orders racing appends: the second waits, then numbers on from
    // the first's last event. A store that leases threads logs only the runs of the threads it
    // holds now: paused past its lease, it would log a run another process executes again.
    return [
      `WITH counter AS (
         UPDATE ${runs} SET last_seq = last_seq + $2 WHERE run_id = $1
           AND ($7::text[] IS NULL OR EXISTS (SELECT 1 FROM ${leases} l
             WHERE l.thread_id = ${runs}.thread_id AND l.token = ANY($7::text[])))
         RETURNING last_seq - $2 AS base
       ), appended AS (
         INSERT INTO ${table} (run_id, seq, event, data)
         SELECT $1, counter.base + item.ordinality, item.event, item.data
         FROM counter, unnest($3::text[], $4::text[]) WITH ORDINALITY AS item(event, data, ordinality)
         RETURNING seq
       ), notified AS (
         SELECT pg_notify($5, $6) WHERE EXISTS (SELECT 1 FROM appended)
       )
       SELECT min(seq) AS first, (SELECT count(*) FROM notified) AS notices FROM appended`,
      [
        runId,
        events.length,
        events.map((event) => event.event),
        events.map((event) => JSON.stringify(event.data ?? null)),
        this.#channel,
        changePayload("events", runId),
        this.#leasing ? [...this.#leases.values()].map((lease) => lease.token) : null,
      ],
    ];
  }

  async readEvents(
    owner: string,
    runId: string,
    afterSeq: number,
    limit: number,
  ): Promise<RunEventRecord[]> {
    const rows = await this.#rows<EventRow>(
      "read events",
      `SELECT e.run_id, e.seq, e.event, e.data FROM ${this.#tables.events} e
       JOIN ${this.#tables.runs} r ON r.run_id = e.run_id
       WHERE e.run_id = $1 AND r.owner = $2 AND e.seq > $3 ORDER BY e.seq LIMIT $4`,
      [runId, owner, afterSeq, limit],
    );
    return rows.map(toEvent);
  }

  async trimEvents(endedBefore: string): Promise<number> {
    const [row] = await this.#rows<{ trimmed: string }>(
      "trim events",
      `WITH trimmed AS (
         DELETE FROM ${this.#tables.events} WHERE run_id IN (
           SELECT run_id FROM ${this.#tables.runs}
           WHERE ended_at IS NOT NULL AND ended_at < $1::timestamptz)
         RETURNING 1
       )
       SELECT count(*) AS trimmed FROM trimmed`,
      [endedBefore],
    );
    return Number(row?.trimmed ?? 0);
  }

  async expiredTemporaryThreads(
    updatedBefore: string,
  ): Promise<Pick<ThreadRecord, "threadId" | "owner">[]> {
    const rows = await this.#rows<{ thread_id: string; owner: string }>(
      "expired temporary threads",
      `SELECT thread_id, owner FROM ${this.#tables.threads}
       WHERE temporary AND status <> 'busy' AND updated_at < $1::timestamptz`,
      [updatedBefore],
    );
    return rows.map((row) => ({ threadId: row.thread_id, owner: row.owner }));
  }

  async createCron(cron: Omit<CronRecord, "createdAt" | "updatedAt">): Promise<CronRecord> {
    const [row] = await this.#rows<CronRow>(
      "create cron",
      `INSERT INTO ${this.#tables.crons} (${cronColumns})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, clock_timestamp(), clock_timestamp())
       RETURNING ${cronColumns}`,
      [
        cron.cronId,
        cron.owner,
        cron.assistantId,
        cron.threadId,
        cron.schedule,
        cron.timezone,
        cron.endTime,
        cron.enabled,
        cron.nextRunDate,
        cron.onRunCompleted,
        JSON.stringify(cron.run),
        JSON.stringify(cron.metadata),
      ],
    );
    return toCron(row!);
  }

  async getCron(owner: string, cronId: string): Promise<CronRecord | undefined> {
    const [row] = await this.#rows<CronRow>(
      "read cron",
      `SELECT ${cronColumns} FROM ${this.#tables.crons} WHERE cron_id = $1 AND owner = $2`,
      [cronId, owner],
    );
    return row && toCron(row);
  }

  async searchCrons(owner: string, search: CronSearch): Promise<CronRecord[]> {
    const { where, values, parameter } = cronWhere(owner, search);
    const direction = search.sortOrder === "asc" ? "ASC" : "DESC";
    const rows = await this.#rows<CronRow>(
      "search crons",
      `SELECT ${cronColumns} FROM ${this.#tables.crons} WHERE ${where.join(" AND ")}
       ORDER BY ${cronSortColumns[search.sortBy]} ${direction} NULLS LAST, position ${direction}
       LIMIT ${parameter(search.limit)} OFFSET ${parameter(search.offset)}`,
      values,
    );
    return rows.map(toCron);
  }

  async countCrons(owner: string, filter: CronFilter): Promise<number> {
    const { where, values } = cronWhere(owner, filter);
    const [row] = await this.#rows<{ count: string }>(
      "count crons",
      `SELECT count(*) AS count FROM ${this.#tables.crons} WHERE ${where.join(" AND ")}`,
      values,
    );
    return Number(row?.count ?? 0);
  }

  async updateCron(
    owner: string,
    cronId: string,
    patch: CronPatch,
  ): Promise<CronRecord | undefined> {
    const [row] = await this.#rows<CronRow>(
      "update cron",
      `UPDATE ${this.#tables.crons} SET
         updated_at = clock_timestamp(),
         schedule = coalesce($3, schedule),
         timezone = CASE WHEN $4 THEN $5 ELSE timezone END,
         end_time = CASE WHEN $6 THEN $7::timestamptz ELSE end_time END,
         enabled = coalesce($8, enabled),
         next_run_date = CASE WHEN $9 THEN $10::timestamptz ELSE next_run_date END,
         on_run_completed = coalesce($11, on_run_completed),
         run = coalesce($12, run),
         metadata = coalesce($13, metadata)
       WHERE cron_id = $1 AND owner = $2
       RETURNING ${cronColumns}`,
      [
        cronId,
        owner,
        patch.schedule ?? null,
        patch.timezone !== undefined,
        patch.timezone ?? null,
        patch.endTime !== undefined,
        patch.endTime ?? null,
        patch.enabled ?? null,
        patch.nextRunDate !== undefined,
        patch.nextRunDate ?? null,
        patch.onRunCompleted ?? null,
        patch.run === undefined ? null : JSON.stringify(patch.run),
        patch.metadata === undefined ? null : JSON.stringify(patch.metadata),
      ],
    );
    return row && toCron(row);
  }

  async deleteCron(owner: string, cronId: string): Promise<boolean> {
    const rows = await this.#rows(
      "delete cron",
      `DELETE FROM ${this.#tables.crons} WHERE cron_id = $1 AND owner = $2 RETURNING cron_id`,
      [cronId, owner],
    );
    return rows.length > 0;
  }

  async upcomingCrons(limit: number): Promise<CronRecord[]> {
    const rows = await this.#rows<CronRow>(
      "upcoming crons",
      `SELECT ${cronColumns} FROM ${this.#tables.crons}
       WHERE enabled AND next_run_date IS NOT NULL ORDER BY next_run_date LIMIT $1`,
      [limit],
    );
    return rows.map(toCron);
  }

  /**
   * Moves the cron's next tick from `due` to `next` in one UPDATE: under READ COMMITTED a racing
   * instance waits for the row, then finds `next_run_date` no longer `due` and changes nothing.
   */
  async claimCronTick(
    cronId: string,
    due: string,
    next: string | null,
  ): Promise<CronRecord | undefined> {
    const [row] = await this.#rows<CronRow>(
      "claim cron tick",
      `UPDATE ${this.#tables.crons} SET next_run_date = $3::timestamptz
       WHERE cron_id = $1 AND next_run_date = $2::timestamptz AND enabled
       RETURNING ${cronColumns}`,
      [cronId, due, next],
    );
    return row && toCron(row);
  }

  /**
   * Hears every change of a run made by any instance over this schema, through this store's
   * one `LISTEN` connection (taken from the checkpointer's pool on first use).
   */
  watchRuns(watcher: RunWatcher): Promise<() => void> {
    return this.#link.watch(watcher);
  }

  /**
   * Takes the thread for this instance: a session advisory lock on the store's `LISTEN`
   * connection, which Postgres releases by itself if the instance dies, its connection breaks,
   * or it stops answering for `leaseTimeoutMs`; and a new token in the thread's lease row, which
   * fences this instance's checkpoints ({@link PostgresServerStore.leaseFencedCheckpointer})
   * and events until it releases the thread or loses it.
   */
  leaseThread(threadId: string): Promise<boolean> {
    this.#leasing = true;
    return this.#inTurn(threadId, () => this.#lease(threadId));
  }

  async #lease(threadId: string): Promise<boolean> {
    if (!(await this.#link.lease(this.#threadLock("lease", threadId)))) return false;
    const held = this.#leases.get(threadId);
    if (held) {
      held.count += 1;
      return true;
    }
    const token = randomUUID();
    try {
      await this.#rows(
        "take thread lease",
        `INSERT INTO ${this.#tables.leases} (thread_id, token) VALUES ($1, $2)
         ON CONFLICT (thread_id) DO UPDATE SET token = EXCLUDED.token`,
        [threadId, token],
      );
    } catch (error) {
      await this.#link.release(this.#threadLock("lease", threadId));
      throw error;
    }
    this.#leases.set(threadId, { token, count: 1 });
    return true;
  }

  releaseThread(threadId: string): Promise<void> {
    return this.#inTurn(threadId, () => this.#release(threadId));
  }

  async #release(threadId: string): Promise<void> {
    const held = this.#leases.get(threadId);
    if (held && --held.count === 0) {
      this.#leases.delete(threadId);
      // Before the lock goes, so the next holder's token is never the one deleted.
      await this.#rows(
        "release thread lease",
        `DELETE FROM ${this.#tables.leases} WHERE thread_id = $1 AND token = $2`,
        [threadId, held.token],
      ).catch(() => undefined);
    }
    await this.#link.release(this.#threadLock("lease", threadId));
  }

  /**
   * Runs `step` once the thread's previous taking or giving back has settled. Two takings at
   * once (two wake-ups of one thread on one worker) would otherwise both find it not yet held,
   * write two tokens and count one: the first release would then delete the token the other
   * still works under, fencing it out of its own run.
   */
  #inTurn<T>(threadId: string, step: () => Promise<T>): Promise<T> {
    const previous = this.#leaseTurns.get(threadId) ?? Promise.resolve();
    const next = previous.then(step);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.#leaseTurns.set(threadId, settled);
    void settled.then(() => {
      if (this.#leaseTurns.get(threadId) === settled) this.#leaseTurns.delete(threadId);
    });
    return next;
  }

  /** Whether the thread's lease row still holds this instance's token. */
  async holdsThread(threadId: string): Promise<boolean> {
    const held = this.#leases.get(threadId);
    if (!held) return false;
    const rows = await this.#rows(
      "read thread lease",
      `SELECT 1 FROM ${this.#tables.leases} WHERE thread_id = $1 AND token = $2`,
      [threadId, held.token],
    );
    return rows.length > 0;
  }

  /**
   * The store's saver with each `put` fenced by this instance's lease on the checkpoint's
   * thread (`PostgresSaver.fenced`, checked in the statement that writes): a process paused
   * past its lease, whose thread another process took over, writes no checkpoint. A queue
   * worker binds its graphs to it.
   *
   * @throws (from `put`) ThreadLeaseLostError when this instance holds no lease on the thread,
   *   PostgresFencedError when another process took it over meanwhile.
   */
  leaseFencedCheckpointer(): Checkpointer {
    return this.#saver.fenced(({ threadId }) => {
      const held = this.#leases.get(threadId);
      if (!held) throw new ThreadLeaseLostError({ threadId });
      return { table: this.#tables.leasesName, where: { thread_id: threadId, token: held.token } };
    });
  }

  /**
   * Ends the store's `LISTEN` connection, and with it this instance's thread leases. The pool
   * is the checkpointer's, closed with it.
   */
  async close(): Promise<void> {
    await this.#link.close();
  }

  /**
   * An advisory lock's key: `insert` orders run insertions on a thread (held for one
   * transaction), `lease` is the thread's executor (held by an instance); they never block
   * each other.
   */
  #threadLock(purpose: "insert" | "lease", threadId: string): string {
    return `@framework/server-postgres:${this.schema}:${purpose}:${threadId}`;
  }

  async #rows<R extends pg.QueryResultRow>(
    operation: string,
    text: string,
    values: unknown[],
  ): Promise<R[]> {
    await this.setup();
    return this.#postgres.query<R>(operation, text, values);
  }
}
