import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { ServerSchemaVersionError } from "../error/server-schema-version-error.js";
import { exceededLimit } from "./run-limits.js";
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
  ServerStore,
  ThreadRecord,
  ThreadSearch,
  ThreadStatus,
} from "./server-store.js";
import {
  cronSortColumns,
  type CronRow as StoreCronRow,
  type EventRow as StoreEventRow,
  type RunRow as StoreRunRow,
  type ThreadRow as StoreThreadRow,
  storeRows,
  threadSortColumns,
} from "./store-rows.js";

/**
 * Forward migrations, one script per schema version, never edited once released. The tables
 * are prefixed so the server's store can share one file with `SqliteSaver`'s checkpoints.
 */
const migrations: readonly string[] = [
  `CREATE TABLE server_threads (
     thread_id    TEXT PRIMARY KEY,
     owner        TEXT NOT NULL,
     created_at   TEXT NOT NULL,
     updated_at   TEXT NOT NULL,
     metadata     TEXT NOT NULL,
     status       TEXT NOT NULL,
     assistant_id TEXT,
     head         TEXT,
     temporary    INTEGER NOT NULL
   );
   CREATE INDEX server_threads_owner ON server_threads (owner, updated_at);
   CREATE TABLE server_runs (
     run_id             TEXT PRIMARY KEY,
     thread_id          TEXT NOT NULL,
     assistant_id       TEXT NOT NULL,
     owner              TEXT NOT NULL,
     status             TEXT NOT NULL,
     created_at         TEXT NOT NULL,
     updated_at         TEXT NOT NULL,
     ended_at           TEXT,
     metadata           TEXT NOT NULL,
     multitask_strategy TEXT NOT NULL,
     request            TEXT NOT NULL,
     error              TEXT,
     attempt            INTEGER NOT NULL,
     checkpoint_before  TEXT,
     cancel             TEXT
   );
   CREATE INDEX server_runs_thread ON server_runs (thread_id, status);
   CREATE INDEX server_runs_unfinished ON server_runs (status) WHERE status IN ('pending', 'running');
   CREATE INDEX server_runs_ended ON server_runs (ended_at) WHERE ended_at IS NOT NULL;
   CREATE TABLE server_run_events (
     run_id TEXT    NOT NULL,
     seq    INTEGER NOT NULL,
     event  TEXT    NOT NULL,
     data   TEXT    NOT NULL,
     PRIMARY KEY (run_id, seq)
   ) WITHOUT ROWID;`,
  // Times are ISO strings written by toISOString (UTC, milliseconds), so text order is time
  // order and a claimed tick compares equal to the one read.
  `CREATE TABLE server_crons (
     cron_id          TEXT PRIMARY KEY,
     owner            TEXT NOT NULL,
     assistant_id     TEXT NOT NULL,
     thread_id        TEXT,
     schedule         TEXT NOT NULL,
     timezone         TEXT,
     end_time         TEXT,
     enabled          INTEGER NOT NULL,
     next_run_date    TEXT,
     on_run_completed TEXT NOT NULL,
     run              TEXT NOT NULL,
     metadata         TEXT NOT NULL,
     created_at       TEXT NOT NULL,
     updated_at       TEXT NOT NULL
   );
   CREATE INDEX server_crons_owner ON server_crons (owner, created_at);
   CREATE INDEX server_crons_thread ON server_crons (thread_id) WHERE thread_id IS NOT NULL;
   CREATE INDEX server_crons_upcoming ON server_crons (next_run_date)
     WHERE enabled = 1 AND next_run_date IS NOT NULL;`,
];

/** The WHERE clause of a cron filter, `owner` first. */
function cronWhere(owner: string, filter: CronFilter & { enabled?: boolean }) {
  const where = ["owner = ?"];
  const params: unknown[] = [owner];
  if (filter.assistantId !== undefined) {
    where.push("assistant_id = ?");
    params.push(filter.assistantId);
  }
  if (filter.threadId !== undefined) {
    where.push("thread_id = ?");
    params.push(filter.threadId);
  }
  if (filter.enabled !== undefined) {
    where.push("enabled = ?");
    params.push(filter.enabled ? 1 : 0);
  }
  const metadata = metadataMatch(filter.metadata);
  return { where: [...where, ...metadata.where], params: [...params, ...metadata.params] };
}

/** Rows whose `metadata` holds every pair of `metadata`. */
function metadataMatch(metadata: JsonObject | undefined) {
  const where: string[] = [];
  const params: unknown[] = [];
  for (const [key, value] of Object.entries(metadata ?? {})) {
    // json_extract gives SQL values (true as 1) and objects as minified JSON text on both
    // sides; comparing the JSON types too keeps true from matching 1.
    const path = `$.${JSON.stringify(key)}`;
    const json = JSON.stringify(value);
    where.push(
      "json_type(metadata, ?) = json_type(?, '$') AND json_extract(metadata, ?) = json_extract(?, '$')",
    );
    params.push(path, json, path, json);
  }
  return { where, params };
}

// SQLite keeps times as ISO text, flags as 0 or 1, and sequence numbers as integers.
type ThreadRow = StoreThreadRow<string, number>;
type RunRow = StoreRunRow<string>;
type EventRow = StoreEventRow<number>;
type CronRow = StoreCronRow<string, number>;
const {
  thread: toThread,
  run: toRun,
  event: toEvent,
  cron: toCron,
} = storeRows({
  time: (value: string) => value,
  flag: (value: number) => value === 1,
  counter: (value: number) => value,
});

/** Options of {@link SqliteServerStore}. */
export interface SqliteServerStoreOptions {
  /** The database file (created with its folder if missing), or `":memory:"`. */
  path: string;
  /** How long a write waits for another process's lock, in ms. Default 5 000. */
  busyTimeoutMs?: number;
}

/**
 * The server's embedded store: threads, runs, run events and crons in one SQLite file (WAL), which
 * may be the same file as the threads' checkpoints.
 */
export class SqliteServerStore implements ServerStore {
  readonly #db: Database.Database;
  readonly #statements: ReturnType<typeof prepare>;
  // One transaction function for every call: better-sqlite3 builds a new one per
  // `db.transaction(fn)`, several times the cost of running it.
  readonly #transaction: (work: () => unknown) => unknown;

  constructor({ path, busyTimeoutMs = 5_000 }: SqliteServerStoreOptions) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.#db = new Database(path);
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = NORMAL");
    this.#db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    migrate(this.#db, path);
    this.#statements = prepare(this.#db);
    this.#transaction = this.#db.transaction((work: () => unknown) => work());
  }

  /** Runs `work` in one transaction: all of it commits, or none. */
  #atomically<T>(work: () => T): T {
    return this.#transaction(work) as T;
  }

  async createThread(
    thread: Pick<ThreadRecord, "threadId" | "owner" | "metadata"> & { temporary?: boolean },
    { ifExists }: { ifExists: "raise" | "do_nothing" },
  ): Promise<ThreadRecord | "taken"> {
    const now = new Date().toISOString();
    return this.#atomically(() => {
      const existing = this.#statements.threadById.get(thread.threadId) as ThreadRow | undefined;
      if (existing) {
        return existing.owner === thread.owner && ifExists === "do_nothing"
          ? toThread(existing)
          : "taken";
      }
      const row: ThreadRow = {
        thread_id: thread.threadId,
        owner: thread.owner,
        created_at: now,
        updated_at: now,
        metadata: JSON.stringify(thread.metadata),
        status: "idle",
        assistant_id: null,
        head: null,
        temporary: thread.temporary ? 1 : 0,
      };
      this.#statements.insertThread.run(row);
      return toThread(row);
    });
  }

  async getThread(owner: string, threadId: string): Promise<ThreadRecord | undefined> {
    const row = this.#statements.ownThread.get(threadId, owner) as ThreadRow | undefined;
    return row && toThread(row);
  }

  async searchThreads(owner: string, search: ThreadSearch): Promise<ThreadRecord[]> {
    const where = ["owner = ?", "temporary = 0"];
    const params: unknown[] = [owner];
    if (search.status) {
      where.push("status = ?");
      params.push(search.status);
    }
    if (search.ids) {
      where.push(`thread_id IN (${search.ids.map(() => "?").join(", ") || "NULL"})`);
      params.push(...search.ids);
    }
    const metadata = metadataMatch(search.metadata);
    where.push(...metadata.where);
    params.push(...metadata.params);
    const order = `${threadSortColumns[search.sortBy]} ${search.sortOrder === "asc" ? "ASC" : "DESC"}`;
    const rows = this.#db
      .prepare(
        `SELECT * FROM server_threads WHERE ${where.join(" AND ")} ORDER BY ${order}, rowid ${search.sortOrder === "asc" ? "ASC" : "DESC"} LIMIT ? OFFSET ?`,
      )
      .all(...params, search.limit, search.offset) as ThreadRow[];
    return rows.map(toThread);
  }

  async patchThread(
    owner: string,
    threadId: string,
    patch: { metadata: JsonObject },
  ): Promise<ThreadRecord | undefined> {
    return this.#atomically(() => {
      const row = this.#statements.ownThread.get(threadId, owner) as ThreadRow | undefined;
      if (!row) return undefined;
      const metadata = { ...(JSON.parse(row.metadata) as JsonObject), ...patch.metadata };
      const updated = {
        ...row,
        metadata: JSON.stringify(metadata),
        updated_at: new Date().toISOString(),
      };
      this.#statements.updateThreadMetadata.run(updated.metadata, updated.updated_at, threadId);
      return toThread(updated);
    });
  }

  async deleteThread(owner: string, threadId: string): Promise<boolean> {
    return this.#atomically(() => {
      const deleted = this.#statements.deleteOwnThread.run(threadId, owner).changes > 0;
      if (deleted) {
        this.#statements.deleteThreadEvents.run(threadId);
        this.#statements.deleteThreadRuns.run(threadId);
        this.#statements.deleteThreadCrons.run(threadId);
      }
      return deleted;
    });
  }

  async setThreadStatus(
    threadId: string,
    status: ThreadStatus,
    assistantId?: string,
  ): Promise<void> {
    this.#statements.setThreadStatus.run(
      status,
      new Date().toISOString(),
      assistantId ?? null,
      threadId,
    );
  }

  async setThreadHead(threadId: string, head: string | null): Promise<void> {
    this.#statements.setThreadHead.run(head, threadId);
  }

  async insertRun(
    run: Omit<RunRecord, "createdAt" | "updatedAt">,
    limits?: RunLimits,
    start?: RunStart,
  ): Promise<RunInsertion> {
    const now = new Date().toISOString();
    return this.#atomically((): RunInsertion => {
      const inflight = (this.#statements.inflightRuns.all(run.threadId) as RunRow[]).map(toRun);
      if (run.multitaskStrategy === "reject" && inflight.length > 0) {
        return { run: undefined, inflight };
      }
      if (limits) {
        const overLimit = exceededLimit(limits, this.#ownerCounts(run.owner));
        if (overLimit) return { run: undefined, inflight, overLimit };
      }
      const started = start !== undefined && inflight.length === 0;
      const row: RunRow = {
        run_id: run.runId,
        thread_id: run.threadId,
        assistant_id: run.assistantId,
        owner: run.owner,
        status: started ? "running" : run.status,
        created_at: now,
        updated_at: now,
        metadata: JSON.stringify(run.metadata),
        multitask_strategy: run.multitaskStrategy,
        request: JSON.stringify(run.request),
        error: run.error === null ? null : JSON.stringify(run.error),
        attempt: run.attempt,
        checkpoint_before: started ? start.checkpointBefore : run.checkpointBefore,
        cancel: run.cancel,
      };
      this.#statements.insertRun.run(row);
      if (started) {
        this.#statements.setThreadStatus.run("busy", now, run.assistantId, run.threadId);
      }
      return { run: toRun(row), inflight };
    });
  }

  async getRun(owner: string, runId: string, threadId?: string): Promise<RunRecord | undefined> {
    const row = this.#statements.ownRun.get(runId, owner) as RunRow | undefined;
    if (!row || (threadId !== undefined && row.thread_id !== threadId)) return undefined;
    return toRun(row);
  }

  async listRuns(owner: string, threadId: string, list: RunList): Promise<RunRecord[]> {
    const rows = (
      list.status === undefined
        ? this.#statements.threadRuns.all(threadId, owner, list.limit, list.offset)
        : this.#statements.threadRunsWithStatus.all(
            threadId,
            owner,
            list.status,
            list.limit,
            list.offset,
          )
    ) as RunRow[];
    return rows.map(toRun);
  }

  async updateRun(
    runId: string,
    patch: RunPatch,
    { thread, events }: RunUpdateOptions = {},
  ): Promise<RunRecord | undefined> {
    const now = new Date().toISOString();
    const change = {
      run_id: runId,
      updated_at: now,
      status: patch.status ?? null,
      set_error: patch.error === undefined ? 0 : 1,
      error: patch.error == null ? null : JSON.stringify(patch.error),
      attempt: patch.attempt ?? null,
      set_cancel: patch.cancel === undefined ? 0 : 1,
      cancel: patch.cancel ?? null,
      set_checkpoint_before: patch.checkpointBefore === undefined ? 0 : 1,
      checkpoint_before: patch.checkpointBefore ?? null,
    };
    return this.#atomically(() => {
      if (events) this.#append(runId, events);
      const row = this.#statements.updateRun.get(change) as RunRow | undefined;
      if (row && thread) {
        this.#statements.setThreadStatus.run(
          thread.status,
          now,
          thread.assistantId ?? null,
          row.thread_id,
        );
      }
      return row && toRun(row);
    });
  }

  async deleteRun(runId: string): Promise<void> {
    this.#atomically(() => {
      this.#statements.deleteRunEvents.run(runId);
      this.#statements.deleteRun.run(runId);
    });
  }

  async countRuns(owner?: string): Promise<RunCounts> {
    return this.#ownerCounts(owner);
  }

  #ownerCounts(owner?: string): RunCounts {
    const row = (
      owner === undefined
        ? this.#statements.countRuns.get()
        : this.#statements.countOwnRuns.get(owner)
    ) as { pending: number | null; running: number | null };
    return { pending: row.pending ?? 0, running: row.running ?? 0 };
  }

  async nextPendingRun(threadId: string): Promise<RunRecord | undefined> {
    const row = this.#statements.nextPending.get(threadId) as RunRow | undefined;
    return row && toRun(row);
  }

  async unfinishedRuns(threadId?: string): Promise<RunRecord[]> {
    const rows =
      threadId === undefined
        ? this.#statements.unfinished.all()
        : this.#statements.threadUnfinished.all(threadId);
    return (rows as RunRow[]).map(toRun);
  }

  async appendEvents(runId: string, events: readonly RunEventInput[]): Promise<RunEventRecord[]> {
    if (events.length === 0) return [];
    return this.#atomically(() => this.#append(runId, events));
  }

  /** Logs events of a run, within the caller's transaction. */
  #append(runId: string, events: readonly RunEventInput[]): RunEventRecord[] {
    if (events.length === 0) return [];
    const { last } = this.#statements.lastSeq.get(runId) as { last: number };
    return events.map(({ event, data }, index) => {
      const seq = last + index + 1;
      this.#statements.insertEvent.run(runId, seq, event, JSON.stringify(data ?? null));
      return { runId, seq, event, data: data ?? null };
    });
  }

  async readEvents(
    owner: string,
    runId: string,
    afterSeq: number,
    limit: number,
  ): Promise<RunEventRecord[]> {
    return (this.#statements.events.all(runId, owner, afterSeq, limit) as EventRow[]).map(toEvent);
  }

  async trimEvents(endedBefore: string): Promise<number> {
    return this.#statements.trimEvents.run(endedBefore).changes;
  }

  async expiredTemporaryThreads(
    updatedBefore: string,
  ): Promise<Pick<ThreadRecord, "threadId" | "owner">[]> {
    const rows = this.#statements.expiredTemporary.all(updatedBefore) as {
      thread_id: string;
      owner: string;
    }[];
    return rows.map((row) => ({ threadId: row.thread_id, owner: row.owner }));
  }

  async createCron(cron: Omit<CronRecord, "createdAt" | "updatedAt">): Promise<CronRecord> {
    const now = new Date().toISOString();
    const row: CronRow = {
      cron_id: cron.cronId,
      owner: cron.owner,
      assistant_id: cron.assistantId,
      thread_id: cron.threadId,
      schedule: cron.schedule,
      timezone: cron.timezone,
      end_time: cron.endTime,
      enabled: cron.enabled ? 1 : 0,
      next_run_date: cron.nextRunDate,
      on_run_completed: cron.onRunCompleted,
      run: JSON.stringify(cron.run),
      metadata: JSON.stringify(cron.metadata),
      created_at: now,
      updated_at: now,
    };
    this.#statements.insertCron.run(row);
    return toCron(row);
  }

  async getCron(owner: string, cronId: string): Promise<CronRecord | undefined> {
    const row = this.#statements.ownCron.get(cronId, owner) as CronRow | undefined;
    return row && toCron(row);
  }

  async searchCrons(owner: string, search: CronSearch): Promise<CronRecord[]> {
    const { where, params } = cronWhere(owner, search);
    const direction = search.sortOrder === "asc" ? "ASC" : "DESC";
    const rows = this.#db
      .prepare(
        `SELECT * FROM server_crons WHERE ${where.join(" AND ")}
         ORDER BY ${cronSortColumns[search.sortBy]} ${direction} NULLS LAST, rowid ${direction}
         LIMIT ? OFFSET ?`,
      )
      .all(...params, search.limit, search.offset) as CronRow[];
    return rows.map(toCron);
  }

  async countCrons(owner: string, filter: CronFilter): Promise<number> {
    const { where, params } = cronWhere(owner, filter);
    const { count } = this.#db
      .prepare(`SELECT count(*) AS count FROM server_crons WHERE ${where.join(" AND ")}`)
      .get(...params) as { count: number };
    return count;
  }

  async updateCron(
    owner: string,
    cronId: string,
    patch: CronPatch,
  ): Promise<CronRecord | undefined> {
    const change = {
      cron_id: cronId,
      owner,
      updated_at: new Date().toISOString(),
      schedule: patch.schedule ?? null,
      set_timezone: patch.timezone === undefined ? 0 : 1,
      timezone: patch.timezone ?? null,
      set_end_time: patch.endTime === undefined ? 0 : 1,
      end_time: patch.endTime ?? null,
      enabled: patch.enabled === undefined ? null : patch.enabled ? 1 : 0,
      set_next_run_date: patch.nextRunDate === undefined ? 0 : 1,
      next_run_date: patch.nextRunDate ?? null,
      on_run_completed: patch.onRunCompleted ?? null,
      run: patch.run === undefined ? null : JSON.stringify(patch.run),
      metadata: patch.metadata === undefined ? null : JSON.stringify(patch.metadata),
    };
    const row = this.#statements.updateCron.get(change) as CronRow | undefined;
    return row && toCron(row);
  }

  async deleteCron(owner: string, cronId: string): Promise<boolean> {
    return this.#statements.deleteOwnCron.run(cronId, owner).changes > 0;
  }

  async upcomingCrons(limit: number): Promise<CronRecord[]> {
    return (this.#statements.upcomingCrons.all(limit) as CronRow[]).map(toCron);
  }

  async claimCronTick(
    cronId: string,
    due: string,
    next: string | null,
  ): Promise<CronRecord | undefined> {
    const row = this.#statements.claimCronTick.get(next, cronId, due) as CronRow | undefined;
    return row && toCron(row);
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

function prepare(db: Database.Database) {
  return {
    threadById: db.prepare("SELECT * FROM server_threads WHERE thread_id = ?"),
    ownThread: db.prepare("SELECT * FROM server_threads WHERE thread_id = ? AND owner = ?"),
    insertThread: db.prepare(
      `INSERT INTO server_threads (thread_id, owner, created_at, updated_at, metadata, status, assistant_id, head, temporary)
       VALUES (@thread_id, @owner, @created_at, @updated_at, @metadata, @status, @assistant_id, @head, @temporary)`,
    ),
    updateThreadMetadata: db.prepare(
      "UPDATE server_threads SET metadata = ?, updated_at = ? WHERE thread_id = ?",
    ),
    setThreadStatus: db.prepare(
      `UPDATE server_threads SET status = ?, updated_at = ?, assistant_id = coalesce(?, assistant_id)
       WHERE thread_id = ?`,
    ),
    setThreadHead: db.prepare("UPDATE server_threads SET head = ? WHERE thread_id = ?"),
    deleteOwnThread: db.prepare("DELETE FROM server_threads WHERE thread_id = ? AND owner = ?"),
    deleteThreadRuns: db.prepare("DELETE FROM server_runs WHERE thread_id = ?"),
    deleteThreadEvents: db.prepare(
      "DELETE FROM server_run_events WHERE run_id IN (SELECT run_id FROM server_runs WHERE thread_id = ?)",
    ),
    inflightRuns: db.prepare(
      `SELECT * FROM server_runs WHERE thread_id = ? AND status IN ('pending', 'running')
       ORDER BY rowid`,
    ),
    insertRun: db.prepare(
      `INSERT INTO server_runs (run_id, thread_id, assistant_id, owner, status, created_at, updated_at,
         metadata, multitask_strategy, request, error, attempt, checkpoint_before, cancel)
       VALUES (@run_id, @thread_id, @assistant_id, @owner, @status, @created_at, @updated_at,
         @metadata, @multitask_strategy, @request, @error, @attempt, @checkpoint_before, @cancel)`,
    ),
    ownRun: db.prepare("SELECT * FROM server_runs WHERE run_id = ? AND owner = ?"),
    threadRuns: db.prepare(
      `SELECT * FROM server_runs WHERE thread_id = ? AND owner = ?
       ORDER BY rowid DESC LIMIT ? OFFSET ?`,
    ),
    threadRunsWithStatus: db.prepare(
      `SELECT * FROM server_runs WHERE thread_id = ? AND owner = ? AND status = ?
       ORDER BY rowid DESC LIMIT ? OFFSET ?`,
    ),
    // One statement that changes only what the patch names and hands the run back.
    updateRun: db.prepare(
      `UPDATE server_runs SET
         updated_at = @updated_at,
         status = coalesce(@status, status),
         error = CASE WHEN @set_error THEN @error ELSE error END,
         attempt = coalesce(@attempt, attempt),
         cancel = CASE WHEN @set_cancel THEN @cancel ELSE cancel END,
         checkpoint_before = CASE WHEN @set_checkpoint_before THEN @checkpoint_before
           ELSE checkpoint_before END,
         ended_at = CASE WHEN coalesce(@status, status) IN ('success', 'error', 'timeout', 'interrupted')
           THEN @updated_at ELSE NULL END
       WHERE run_id = @run_id
       RETURNING *`,
    ),
    deleteRun: db.prepare("DELETE FROM server_runs WHERE run_id = ?"),
    deleteRunEvents: db.prepare("DELETE FROM server_run_events WHERE run_id = ?"),
    nextPending: db.prepare(
      "SELECT * FROM server_runs WHERE thread_id = ? AND status = 'pending' ORDER BY rowid LIMIT 1",
    ),
    countRuns: db.prepare(
      `SELECT sum(status = 'pending') AS pending, sum(status = 'running') AS running
       FROM server_runs WHERE status IN ('pending', 'running')`,
    ),
    countOwnRuns: db.prepare(
      `SELECT sum(status = 'pending') AS pending, sum(status = 'running') AS running
       FROM server_runs WHERE status IN ('pending', 'running') AND owner = ?`,
    ),
    unfinished: db.prepare(
      "SELECT * FROM server_runs WHERE status IN ('pending', 'running') ORDER BY rowid",
    ),
    threadUnfinished: db.prepare(
      "SELECT * FROM server_runs WHERE thread_id = ? AND status IN ('pending', 'running') ORDER BY rowid",
    ),
    lastSeq: db.prepare(
      "SELECT coalesce(max(seq), 0) AS last FROM server_run_events WHERE run_id = ?",
    ),
    insertEvent: db.prepare(
      "INSERT INTO server_run_events (run_id, seq, event, data) VALUES (?, ?, ?, ?)",
    ),
    events: db.prepare(
      `SELECT e.* FROM server_run_events e JOIN server_runs r ON r.run_id = e.run_id
       WHERE e.run_id = ? AND r.owner = ? AND e.seq > ? ORDER BY e.seq LIMIT ?`,
    ),
    deleteThreadCrons: db.prepare("DELETE FROM server_crons WHERE thread_id = ?"),
    insertCron: db.prepare(
      `INSERT INTO server_crons (cron_id, owner, assistant_id, thread_id, schedule, timezone,
         end_time, enabled, next_run_date, on_run_completed, run, metadata, created_at, updated_at)
       VALUES (@cron_id, @owner, @assistant_id, @thread_id, @schedule, @timezone,
         @end_time, @enabled, @next_run_date, @on_run_completed, @run, @metadata, @created_at,
         @updated_at)`,
    ),
    ownCron: db.prepare("SELECT * FROM server_crons WHERE cron_id = ? AND owner = ?"),
    updateCron: db.prepare(
      `UPDATE server_crons SET
         updated_at = @updated_at,
         schedule = coalesce(@schedule, schedule),
         timezone = CASE WHEN @set_timezone THEN @timezone ELSE timezone END,
         end_time = CASE WHEN @set_end_time THEN @end_time ELSE end_time END,
         enabled = coalesce(@enabled, enabled),
         next_run_date = CASE WHEN @set_next_run_date THEN @next_run_date ELSE next_run_date END,
         on_run_completed = coalesce(@on_run_completed, on_run_completed),
         run = coalesce(@run, run),
         metadata = coalesce(@metadata, metadata)
       WHERE cron_id = @cron_id AND owner = @owner
       RETURNING *`,
    ),
    deleteOwnCron: db.prepare("DELETE FROM server_crons WHERE cron_id = ? AND owner = ?"),
    upcomingCrons: db.prepare(
      `SELECT * FROM server_crons WHERE enabled = 1 AND next_run_date IS NOT NULL
       ORDER BY next_run_date LIMIT ?`,
    ),
    claimCronTick: db.prepare(
      `UPDATE server_crons SET next_run_date = ?
       WHERE cron_id = ? AND next_run_date = ? AND enabled = 1
       RETURNING *`,
    ),
    expiredTemporary: db.prepare(
      `SELECT thread_id, owner FROM server_threads
       WHERE temporary = 1 AND status <> 'busy' AND updated_at < ?`,
    ),
    trimEvents: db.prepare(
      `DELETE FROM server_run_events WHERE run_id IN
         (SELECT run_id FROM server_runs WHERE ended_at IS NOT NULL AND ended_at < ?)`,
    ),
  };
}

/** Brings the schema up to date in one write transaction; a newer schema is refused. */
function migrate(db: Database.Database, path: string): void {
  db.transaction(() => {
    db.exec(
      `CREATE TABLE IF NOT EXISTS server_schema_migrations (
         version    INTEGER PRIMARY KEY,
         applied_at TEXT    NOT NULL
       )`,
    );
    const { version } = db
      .prepare("SELECT coalesce(max(version), 0) AS version FROM server_schema_migrations")
      .get() as { version: number };
    if (version > migrations.length) {
      throw new ServerSchemaVersionError({ path, found: version, supported: migrations.length });
    }
    const record = db.prepare(
      "INSERT INTO server_schema_migrations (version, applied_at) VALUES (?, ?)",
    );
    for (let next = version + 1; next <= migrations.length; next++) {
      db.exec(migrations[next - 1]!);
      record.run(next, new Date().toISOString());
    }
  }).immediate();
}
