import type { TransactionQuery } from "@framework/checkpoint-postgres/internal";
import { ServerSchemaVersionError } from "@framework/server";

/** The quoted, schema-qualified names of the server's tables. */
export interface ServerTables {
  readonly migrations: string;
  readonly threads: string;
  readonly runs: string;
  readonly events: string;
  /** Unquoted, as `PostgresSaver.fenced` takes a table in its schema. */
  readonly leasesName: string;
  readonly leases: string;
  readonly crons: string;
}

/** The server's tables in `schema`, prefixed so they sit beside the checkpoints. */
export function serverTablesIn(schema: string): ServerTables {
  return {
    migrations: `"${schema}".server_schema_migrations`,
    threads: `"${schema}".server_threads`,
    runs: `"${schema}".server_runs`,
    events: `"${schema}".server_run_events`,
    leasesName: "server_thread_leases",
    leases: `"${schema}".server_thread_leases`,
    crons: `"${schema}".server_crons`,
  };
}

/**
 * Forward migrations, one per schema version, never edited once released. JSON is kept as
 * `text`, exactly as written (`jsonb` refuses `\u0000` and reorders keys); `position` orders
 * rows that share a timestamp; `last_seq` is the run's event counter, which `appendEvents`
 * advances in the statement that inserts, so racing writers are numbered without a gap.
 */
const migrations: readonly ((tables: ServerTables) => string)[] = [
  (t) => `
    CREATE TABLE ${t.threads} (
      position     bigint      GENERATED ALWAYS AS IDENTITY,
      thread_id    text        PRIMARY KEY,
      owner        text        NOT NULL,
      created_at   timestamptz NOT NULL,
      updated_at   timestamptz NOT NULL,
      metadata     text        NOT NULL,
      status       text        NOT NULL,
      assistant_id text,
      head         text,
      temporary    boolean     NOT NULL
    );
    CREATE INDEX server_threads_owner ON ${t.threads} (owner, updated_at);
    CREATE INDEX server_threads_temporary ON ${t.threads} (updated_at) WHERE temporary;
    CREATE TABLE ${t.runs} (
      position           bigint      GENERATED ALWAYS AS IDENTITY,
      run_id             text        PRIMARY KEY,
      thread_id          text        NOT NULL,
      assistant_id       text        NOT NULL,
      owner              text        NOT NULL,
      status             text        NOT NULL,
      created_at         timestamptz NOT NULL,
      updated_at         timestamptz NOT NULL,
      ended_at           timestamptz,
      metadata           text        NOT NULL,
      multitask_strategy text        NOT NULL,
      request            text        NOT NULL,
      error              text,
      attempt            integer     NOT NULL,
      checkpoint_before  text,
      cancel             text,
      last_seq           bigint      NOT NULL DEFAULT 0
    );
    CREATE INDEX server_runs_thread ON ${t.runs} (thread_id, position);
    CREATE INDEX server_runs_unfinished ON ${t.runs} (position) WHERE status IN ('pending', 'running');
    CREATE INDEX server_runs_ended ON ${t.runs} (ended_at) WHERE ended_at IS NOT NULL;
    CREATE TABLE ${t.events} (
      run_id text   NOT NULL,
      seq    bigint NOT NULL,
      event  text   NOT NULL,
      data   text   NOT NULL,
      PRIMARY KEY (run_id, seq)
    );`,
  // The token of each thread's current lease: a checkpoint or event is written only under it,
  // so a process paused past its lease (another one took the thread over) writes nothing.
  (t) => `
    CREATE TABLE ${t.leases} (
      thread_id text PRIMARY KEY,
      token     text NOT NULL
    );`,
  // Crons; a tick is claimed by moving next_run_date from the due tick to the next one in one
  // UPDATE, so of instances racing for a tick exactly one sees its row change.
  (t) => `
    CREATE TABLE ${t.crons} (
      position         bigint      GENERATED ALWAYS AS IDENTITY,
      cron_id          text        PRIMARY KEY,
      owner            text        NOT NULL,
      assistant_id     text        NOT NULL,
      thread_id        text,
      schedule         text        NOT NULL,
      timezone         text,
      end_time         timestamptz,
      enabled          boolean     NOT NULL,
      next_run_date    timestamptz,
      on_run_completed text        NOT NULL,
      run              text        NOT NULL,
      metadata         text        NOT NULL,
      created_at       timestamptz NOT NULL,
      updated_at       timestamptz NOT NULL
    );
    CREATE INDEX server_crons_owner ON ${t.crons} (owner, created_at);
    CREATE INDEX server_crons_thread ON ${t.crons} (thread_id) WHERE thread_id IS NOT NULL;
    CREATE INDEX server_crons_upcoming ON ${t.crons} (next_run_date)
      WHERE enabled AND next_run_date IS NOT NULL;`,
];

/** The newest schema version this package writes. */
export const serverSchemaVersion = migrations.length;

/**
 * Creates or migrates the server's tables in one transaction under an advisory lock on the
 * schema's name, so any number of instances may start at once: the first applies what is
 * missing, the others wait and find nothing left to do. A newer schema is refused.
 */
export async function migrateServerSchema(query: TransactionQuery, schema: string): Promise<void> {
  const tables = serverTablesIn(schema);
  await query("SELECT pg_advisory_xact_lock(hashtext($1))", [
    `@framework/server-postgres:${schema}`,
  ]);
  await query(
    `CREATE TABLE IF NOT EXISTS ${tables.migrations} (
       version    integer     PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const [row] = await query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${tables.migrations}`,
  );
  const current = row?.version ?? 0;
  if (current > serverSchemaVersion) {
    throw new ServerSchemaVersionError({
      path: `Postgres schema "${schema}"`,
      found: current,
      supported: serverSchemaVersion,
    });
  }
  for (let version = current + 1; version <= serverSchemaVersion; version++) {
    await query(migrations[version - 1]!(tables));
    await query(`INSERT INTO ${tables.migrations} (version) VALUES ($1)`, [version]);
  }
}
