import type Database from "better-sqlite3";
import { SqliteSchemaVersionError } from "../error/sqlite-schema-version-error.js";

/**
 * Forward migrations, one SQL script per schema version, applied in order and never edited
 * once released: a new version appends a script. Checkpoints are stored as their JSON text,
 * opaque to the database, so a new checkpoint format needs no migration.
 */
const migrations: readonly string[] = [
  `CREATE TABLE checkpoints (
     thread_id     TEXT    NOT NULL,
     seq           INTEGER NOT NULL,
     checkpoint_id TEXT    NOT NULL,
     checkpoint    TEXT    NOT NULL
   );
   CREATE UNIQUE INDEX checkpoints_thread_seq ON checkpoints (thread_id, seq);
   CREATE UNIQUE INDEX checkpoints_thread_id ON checkpoints (thread_id, checkpoint_id);`,
];

/** The newest schema version this package writes. */
export const schemaVersion = migrations.length;

/**
 * Brings the database's schema up to {@link schemaVersion} in one write transaction, so two
 * processes opening a new file at once apply each migration exactly once. Refuses a file whose
 * schema is newer than this package knows, without changing it.
 */
export function migrate(db: Database.Database, path: string): void {
  db.transaction(() => {
    db.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version    INTEGER PRIMARY KEY,
         applied_at TEXT    NOT NULL
       )`,
    );
    const row = db.prepare("SELECT max(version) AS version FROM schema_migrations").get() as {
      version: number | null;
    };
    const current = row.version ?? 0;
    if (current > schemaVersion) {
      throw new SqliteSchemaVersionError({ path, found: current, supported: schemaVersion });
    }
    const record = db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)");
    for (let version = current + 1; version <= schemaVersion; version++) {
      db.exec(migrations[version - 1]!);
      record.run(version, new Date().toISOString());
    }
  }).immediate();
}
