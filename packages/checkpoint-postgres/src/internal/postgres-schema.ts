import type pg from "pg";
import { PostgresSchemaVersionError } from "../error/postgres-schema-version-error.js";

/** A schema name used unquoted-safe: letters, digits and `_`, as Postgres folds nothing. */
const schemaNamePattern = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** True when `name` can name the checkpoint schema. */
export function isValidSchemaName(name: string): boolean {
  return schemaNamePattern.test(name);
}

/** The qualified, quoted names of the package's tables in `schema`. */
export interface Tables {
  migrations: string;
  threads: string;
  checkpoints: string;
}

/** The quoted table names inside `schema`. */
export function tablesIn(schema: string): Tables {
  return {
    migrations: `"${schema}".checkpoint_schema_migrations`,
    threads: `"${schema}".checkpoint_threads`,
    checkpoints: `"${schema}".checkpoints`,
  };
}

/**
 * Forward migrations, one per schema version, applied in order and never edited once released.
 * Checkpoints are `text` (JSON with `\u0000` must round-trip, which `jsonb` refuses), opaque
 * to the database, so a new checkpoint format needs no migration. `checkpoint_threads` holds
 * each thread's head `seq`, which `put` advances in the same statement that appends.
 */
const migrations: readonly ((tables: Tables, schema: string) => string)[] = [
  (t, schema) => `
    CREATE TABLE ${t.threads} (
      thread_id  text        PRIMARY KEY,
      head_seq   bigint      NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE ${t.checkpoints} (
      thread_id     text        NOT NULL REFERENCES ${t.threads} (thread_id) ON DELETE CASCADE,
      seq           bigint      NOT NULL,
      checkpoint_id text        NOT NULL,
      checkpoint    text        NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (thread_id, seq)
    );
    CREATE UNIQUE INDEX checkpoints_thread_checkpoint_id
      ON "${schema}".checkpoints (thread_id, checkpoint_id);`,
];

/** The newest schema version this package writes. */
export const schemaVersion = migrations.length;

/**
 * Creates or migrates the checkpoint tables in one transaction under an advisory lock on the
 * schema's name, so any number of processes may call it at once: the first applies what is
 * missing, the others wait and find nothing left to do.
 */
export async function migrate(client: pg.ClientBase, schema: string): Promise<void> {
  const tables = tablesIn(schema);
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
      `@framework/checkpoint-postgres:${schema}`,
    ]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${tables.migrations} (
         version    integer     PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${tables.migrations}`,
    );
    const current = rows[0]?.version ?? 0;
    if (current > schemaVersion) {
      throw new PostgresSchemaVersionError({ schema, found: current, supported: schemaVersion });
    }
    for (let version = current + 1; version <= schemaVersion; version++) {
      await client.query(migrations[version - 1]!(tables, schema));
      await client.query(`INSERT INTO ${tables.migrations} (version) VALUES ($1)`, [version]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
