import type { PostgresSaver } from "@framework/checkpoint-postgres";
import { internalsOf, type PostgresSaverInternals } from "@framework/checkpoint-postgres/internal";
import type pg from "pg";
import type { RunEvent } from "../run/run-event.js";
import type { RunInput, RunRecord, RunStatus } from "../run/run-record.js";

/** The runs table, in the checkpointer's schema beside the checkpoints. */
export const runsTable = "crew_runs";

/** How many logged events one read of a run's log takes. */
export const runEventPage = 256;

/** A cancel request, sent to whichever worker holds the run. */
export interface CancelNotice {
  readonly type: "cancel";
  readonly runId: string;
}

/** What travels on the runs' notification channel. */
export type RunNotice = RunEvent | CancelNotice;

const active = "('pending', 'running')";

interface RunRow {
  run_id: string;
  thread_id: string;
  crew: string;
  status: RunStatus;
  input: string;
  lease_epoch: string;
  attempts: number;
  worker: string | null;
  cancel_requested: boolean;
  result: string | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

function toRecord(row: RunRow): RunRecord {
  return {
    runId: row.run_id,
    threadId: row.thread_id,
    crew: row.crew,
    status: row.status,
    input: JSON.parse(row.input) as RunInput,
    leaseEpoch: Number(row.lease_epoch),
    attempts: row.attempts,
    worker: row.worker ?? undefined,
    cancelRequested: row.cancel_requested,
    result: row.result === null ? undefined : JSON.parse(row.result),
    error: row.error ?? undefined,
    createdAt: row.created_at,
    startedAt: row.started_at ?? undefined,
    finishedAt: row.finished_at ?? undefined,
  };
}

/** A unique index refused the row: another run took the thread first. */
function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}

/**
 * The `crew_runs` table: the truth about every run. Each status change is one statement that
 * also notifies the runs' channel, so listeners learn of it exactly when it commits.
 */
export class RunStore {
  /** The `LISTEN` channel of this schema's runs. */
  readonly channel: string;
  readonly #schema: string;
  readonly #table: string;
  /** The runs' event log: every event told on the channel but `cancel`, numbered per run. */
  readonly #events: string;
  /** The SQL function that logs an event (numbering it) and notifies the channel. */
  readonly #notice: string;
  readonly #postgres: PostgresSaverInternals;
  #ready: Promise<void> | undefined;

  /** @throws ConfigurationError when `checkpointer` is not a `PostgresSaver`. */
  constructor(checkpointer: PostgresSaver) {
    this.#postgres = internalsOf(checkpointer);
    this.#schema = checkpointer.schema;
    this.#table = `"${this.#schema}".${runsTable}`;
    this.#events = `"${this.#schema}".crew_run_events`;
    this.#notice = `"${this.#schema}".crew_run_notice`;
    this.channel = `crew_runs_${this.#schema}`.slice(0, 63);
  }

  /** A connection of the checkpointer's pool of its own, for `LISTEN`; release it when done. */
  connect(): Promise<pg.PoolClient> {
    return this.#postgres.pool.connect();
  }

  /** Creates the table and its indexes once, safely when many processes start together. */
  setup(): Promise<void> {
    this.#ready ??= this.#create().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #create(): Promise<void> {
    // The checkpointer sets its schema up before the statement; one simple-protocol string
    // runs as one transaction, so the advisory lock covers it all.
    await this.#postgres.query(
      "create runs table",
      `SELECT pg_advisory_xact_lock(hashtext('@framework/crew-queue:${this.#schema}'));
       CREATE TABLE IF NOT EXISTS ${this.#table} (
         run_id           text        PRIMARY KEY,
         thread_id        text        NOT NULL,
         crew             text        NOT NULL,
         status           text        NOT NULL,
         input            text        NOT NULL,
         lease_epoch      bigint      NOT NULL DEFAULT 0,
         attempts         integer     NOT NULL DEFAULT 0,
         worker           text,
         cancel_requested boolean     NOT NULL DEFAULT false,
         result           text,
         error            text,
         created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
         started_at       timestamptz,
         updated_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
         finished_at      timestamptz
       );
       CREATE UNIQUE INDEX IF NOT EXISTS crew_runs_one_active_per_thread
         ON ${this.#table} (thread_id) WHERE status IN ${active};
       CREATE INDEX IF NOT EXISTS crew_runs_queued
         ON ${this.#table} (thread_id, created_at) WHERE status = 'queued';
       CREATE INDEX IF NOT EXISTS crew_runs_active ON ${this.#table} (status) WHERE status IN ${active};
       CREATE TABLE IF NOT EXISTS ${this.#events} (
         run_id text   NOT NULL,
         seq    bigint NOT NULL,
         event  text   NOT NULL,
         PRIMARY KEY (run_id, seq)
       );
       -- Numbers and logs an event, then notifies it with its number, in the caller's
       -- statement: an event is in the log exactly when the change it tells of commits. The
       -- lock orders a run's writers; each reads the last number after taking it.
       CREATE OR REPLACE FUNCTION ${this.#notice}(channel text, run text, body text, keep boolean)
       RETURNS bigint LANGUAGE plpgsql AS $notice$
       DECLARE
         numbered bigint;
         told text := body;
       BEGIN
         IF keep THEN
           PERFORM pg_advisory_xact_lock(hashtextextended('@framework/crew-queue:events:' || run, 0));
           SELECT coalesce(max(seq), 0) + 1 INTO numbered FROM ${this.#events} WHERE run_id = run;
           told := (body::jsonb || jsonb_build_object('seq', numbered))::text;
           INSERT INTO ${this.#events} (run_id, seq, event) VALUES (run, numbered, told);
         END IF;
         PERFORM pg_notify(channel, told);
         RETURN numbered;
       END
       $notice$;`,
    );
  }

  async #rows(operation: string, text: string, values: unknown[]): Promise<RunRow[]> {
    await this.setup();
    return this.#postgres.query<RunRow>(operation, text, values);
  }

  /**
   * Inserts a run as `pending` (refused while its thread has an active or a queued run) or
   * as `queued`. Returns false when refused or when the run id exists.
   */
  async insert(
    run: { runId: string; threadId: string; crew: string; input: RunInput },
    status: "pending" | "queued",
  ): Promise<boolean> {
    const free =
      status === "pending"
        ? `WHERE NOT EXISTS (SELECT 1 FROM ${this.#table} WHERE thread_id = $2 AND status = 'queued')`
        : "";
    const rows = await this.#rows(
      "submit run",
      `INSERT INTO ${this.#table} (run_id, thread_id, crew, status, input)
       SELECT $1, $2, $3, $4, $5 ${free}
       ON CONFLICT DO NOTHING RETURNING run_id`,
      [run.runId, run.threadId, run.crew, status, JSON.stringify(run.input)],
    );
    return rows.length === 1;
  }

  /** The run, or `undefined`. */
  async get(runId: string): Promise<RunRecord | undefined> {
    const rows = await this.#rows("read run", `SELECT * FROM ${this.#table} WHERE run_id = $1`, [
      runId,
    ]);
    return rows[0] && toRecord(rows[0]);
  }

  /** The thread's active run, if any. */
  async activeRunOf(threadId: string): Promise<string | undefined> {
    const rows = await this.#rows(
      "read thread",
      `SELECT run_id FROM ${this.#table} WHERE thread_id = $1 AND status IN ${active}`,
      [threadId],
    );
    return rows[0]?.run_id;
  }

  /**
   * Makes the thread's oldest queued run `pending` if the thread has no active run; returns
   * its id. Called after every change that may free a thread: whoever runs it last sees
   * every commit before it, and of two at once the unique index lets one win.
   */
  async promoteNext(threadId: string): Promise<string | undefined> {
    try {
      const rows = await this.#rows(
        "promote queued run",
        `WITH next AS (
           UPDATE ${this.#table} SET status = 'pending', updated_at = clock_timestamp()
           WHERE run_id = (SELECT run_id FROM ${this.#table} WHERE thread_id = $1 AND status = 'queued'
                           ORDER BY created_at, run_id LIMIT 1)
             AND NOT EXISTS (SELECT 1 FROM ${this.#table} WHERE thread_id = $1 AND status IN ${active})
           RETURNING run_id)
         SELECT run_id, ${this.#notice}($2, run_id, json_build_object('type', 'status', 'at', clock_timestamp(), 'runId', run_id, 'status', 'pending')::text, true)
         FROM next`,
        [threadId, this.channel],
      );
      return rows[0]?.run_id;
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  /**
   * Takes the run's lease for `worker`: a new epoch (fencing every earlier holder), status
   * `running`. `undefined` when the run is not active (finished, cancelled, queued, unknown).
   */
  async claim(runId: string, worker: string): Promise<RunRecord | undefined> {
    const rows = await this.#rows(
      "claim run",
      `WITH claimed AS (
         UPDATE ${this.#table}
         SET status = 'running', lease_epoch = lease_epoch + 1, attempts = attempts + 1,
             worker = $2, started_at = coalesce(started_at, clock_timestamp()), updated_at = clock_timestamp()
         WHERE run_id = $1 AND status IN ${active}
         RETURNING *)
       SELECT claimed.*, ${this.#notice}($3, run_id, json_build_object('type', 'status', 'at', clock_timestamp(), 'runId', run_id,
         'status', 'running', 'worker', worker, 'attempt', attempts)::text, true) AS notified
       FROM claimed`,
      [runId, worker, this.channel],
    );
    return rows[0] && toRecord(rows[0]);
  }

  /**
   * Ends the run as `status` if `leaseEpoch` still holds it; returns false when the lease
   * moved on (a takeover), changing nothing.
   */
  async finish(
    runId: string,
    leaseEpoch: number,
    status: "done" | "failed" | "cancelled",
    outcome: { result?: unknown; error?: string } = {},
  ): Promise<boolean> {
    const rows = await this.#rows(
      "finish run",
      `WITH ended AS (
         UPDATE ${this.#table}
         SET status = $3, result = $4, error = $5, finished_at = clock_timestamp(), updated_at = clock_timestamp()
         WHERE run_id = $1 AND lease_epoch = $2 AND status = 'running'
         RETURNING run_id)
       SELECT run_id, ${this.#notice}($6, run_id, json_build_object('type', 'status', 'at', clock_timestamp(), 'runId', run_id, 'status', $3::text)::text, true)
       FROM ended`,
      [
        runId,
        leaseEpoch,
        status,
        outcome.result === undefined ? null : JSON.stringify(outcome.result),
        outcome.error ?? null,
        this.channel,
      ],
    );
    return rows.length === 1;
  }

  /** Gives the lease back (a worker closing): the run is `pending` again for another worker. */
  async release(runId: string, leaseEpoch: number): Promise<boolean> {
    const rows = await this.#rows(
      "release run",
      `WITH released AS (
         UPDATE ${this.#table} SET status = 'pending', worker = NULL, updated_at = clock_timestamp()
         WHERE run_id = $1 AND lease_epoch = $2 AND status = 'running'
         RETURNING run_id)
       SELECT run_id, ${this.#notice}($3, run_id, json_build_object('type', 'status', 'at', clock_timestamp(), 'runId', run_id, 'status', 'pending')::text, true)
       FROM released`,
      [runId, leaseEpoch, this.channel],
    );
    return rows.length === 1;
  }

  /**
   * Fails an active run whatever its lease (its job gave up); returns its thread, or
   * `undefined` when it was not active.
   */
  async fail(runId: string, error: string): Promise<string | undefined> {
    const rows = await this.#rows(
      "fail run",
      `WITH ended AS (
         UPDATE ${this.#table}
         SET status = 'failed', error = $2, finished_at = clock_timestamp(), updated_at = clock_timestamp()
         WHERE run_id = $1 AND status IN ${active}
         RETURNING run_id, thread_id)
       SELECT thread_id, ${this.#notice}($3, run_id, json_build_object('type', 'status', 'at', clock_timestamp(), 'runId', run_id, 'status', 'failed')::text, true)
       FROM ended`,
      [runId, error, this.channel],
    );
    return rows[0]?.thread_id;
  }

  /**
   * Records a cancel: a run no worker holds (`queued`, `pending`) ends `cancelled` here; a
   * `running` one is told through the channel and its holder stops it. Returns the run's
   * status after the request, `undefined` when it was not cancellable.
   */
  async requestCancel(runId: string): Promise<{ status: RunStatus; threadId: string } | undefined> {
    const rows = await this.#rows(
      "cancel run",
      `WITH asked AS (
         UPDATE ${this.#table}
         SET cancel_requested = true,
             status = CASE WHEN status = 'running' THEN status ELSE 'cancelled' END,
             finished_at = CASE WHEN status = 'running' THEN finished_at ELSE clock_timestamp() END,
             updated_at = clock_timestamp()
         WHERE run_id = $1 AND status IN ('queued', 'pending', 'running')
         RETURNING run_id, thread_id, status)
       SELECT status, thread_id, ${this.#notice}($2, run_id, CASE WHEN status = 'running'
           THEN json_build_object('type', 'cancel', 'runId', run_id)::text
           ELSE json_build_object('type', 'status', 'at', clock_timestamp(), 'runId', run_id, 'status', status)::text END,
         status <> 'running')
       FROM asked`,
      [runId, this.channel],
    );
    const row = rows[0];
    return row && { status: row.status, threadId: row.thread_id };
  }

  /**
   * Makes a `cancelled` or `failed` run `pending` again. Returns false when it is not one of
   * those; throws the unique violation when its thread is busy.
   */
  async reopen(runId: string): Promise<boolean> {
    const rows = await this.#rows(
      "resume run",
      `WITH reopened AS (
         UPDATE ${this.#table}
         SET status = 'pending', cancel_requested = false, error = NULL, finished_at = NULL,
             updated_at = clock_timestamp()
         WHERE run_id = $1 AND status IN ('cancelled', 'failed')
         RETURNING run_id)
       SELECT run_id, ${this.#notice}($2, run_id, json_build_object('type', 'status', 'at', clock_timestamp(), 'runId', run_id, 'status', 'pending')::text, true)
       FROM reopened`,
      [runId, this.channel],
    );
    return rows.length === 1;
  }

  /** Ids of the runs Postgres says are active, for the sweeper to match against jobs. */
  async activeRuns(): Promise<string[]> {
    const rows = await this.#rows(
      "list active runs",
      `SELECT run_id FROM ${this.#table} WHERE status IN ${active} ORDER BY created_at`,
      [],
    );
    return rows.map((row) => row.run_id);
  }

  /** Threads with queued runs and no active one (a promotion that never happened). */
  async stalledThreads(): Promise<string[]> {
    const rows = await this.#rows(
      "list queued threads",
      `SELECT DISTINCT q.thread_id FROM ${this.#table} q WHERE q.status = 'queued'
       AND NOT EXISTS (SELECT 1 FROM ${this.#table} a WHERE a.thread_id = q.thread_id AND a.status IN ${active})`,
      [],
    );
    return rows.map((row) => row.thread_id);
  }

  /** Counts of runs per status. */
  async countByStatus(): Promise<Partial<Record<RunStatus, number>>> {
    await this.setup();
    const rows = await this.#postgres.query<{ status: RunStatus; count: string }>(
      "count runs",
      `SELECT status, count(*) AS count FROM ${this.#table} GROUP BY status`,
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  }

  /**
   * Tells listeners of the run about a node event, and logs it with the run's next sequence
   * number (a `cancel` notice is told only).
   */
  async notify(notice: RunNotice): Promise<void> {
    await this.#rows("notify", `SELECT ${this.#notice}($1, $2, $3, $4)`, [
      this.channel,
      notice.runId,
      JSON.stringify(notice),
      notice.type !== "cancel",
    ]);
  }

  /** The run's logged events after sequence number `after`, oldest first, {@link runEventPage} at most. */
  async eventsAfter(runId: string, after: number): Promise<RunEvent[]> {
    await this.setup();
    const rows = await this.#postgres.query<{ event: string }>(
      "read run events",
      `SELECT event FROM ${this.#events} WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [runId, after, runEventPage],
    );
    return rows.map((row) => JSON.parse(row.event) as RunEvent);
  }

  /** True for the unique violation `reopen` throws on a busy thread. */
  static isThreadBusy(error: unknown): boolean {
    return isUniqueViolation(error);
  }
}
