import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigurationError } from "@framework/core";
import {
  type Checkpoint,
  CheckpointConflictError,
  type Checkpointer,
  type ListCheckpointsOptions,
  listInPages,
  type StoredCheckpoint,
} from "@framework/graph";
import Database from "better-sqlite3";
import { SqliteBusyError } from "./error/sqlite-busy-error.js";
import { SqliteSaverError } from "./error/sqlite-saver-error.js";
import { migrate } from "./internal/sqlite-schema.js";

/** Options of {@link SqliteSaver}. */
export interface SqliteSaverOptions {
  /**
   * The database file; its directory is created when missing. `":memory:"` keeps the
   * checkpoints in this connection only (tests).
   */
  path: string;
  /**
   * How long an operation waits for another connection's write lock before failing with
   * `SqliteBusyError`. SQLite retries during the wait; the wait blocks this thread, which is
   * why it is bounded. Default 5000.
   */
  busyTimeoutMs?: number;
  /**
   * `"full"` (default) syncs each `put` to disk, so a resolved `put` survives a power loss as
   * well as a killed process. `"normal"` survives a killed process but may lose the last
   * checkpoints on power loss, for faster writes.
   */
  durability?: "full" | "normal";
}

/** The checkpoints a page of {@link SqliteSaver.list} reads at once. */

const defaultBusyTimeoutMs = 5000;

interface Statements {
  latest: Database.Statement<[string], { checkpoint: string }>;
  byId: Database.Statement<[string, string], { checkpoint: string }>;
  head: Database.Statement<[string], { seq: number | null }>;
  append: Database.Statement<{ threadId: string; seq: number; id: string; json: string }>;
  page: Database.Statement<[string, number, number], { seq: number; checkpoint: string }>;
  deleteThread: Database.Statement<[string]>;
}

/**
 * A {@link Checkpointer} in one SQLite file (better-sqlite3, WAL journal): the embedded,
 * durable default. Each checkpoint is a row holding its JSON text, keyed by thread and `seq`,
 * so a resolved `put` survives the process being killed, and several processes may share
 * one file: a `put` whose `seq` is not the thread's next is refused atomically with
 * `CheckpointConflictError`.
 *
 * @example
 * const saver = new SqliteSaver({ path: ".framework/checkpoints.sqlite" });
 * const app = graph.compile({ checkpointer: saver });
 */
export class SqliteSaver implements Checkpointer {
  /** The database file, as given. */
  readonly path: string;
  readonly #busyTimeoutMs: number;
  readonly #db: Database.Database;
  readonly #statements: Statements;

  /**
   * Opens (or creates) the database and brings its schema up to date.
   *
   * @throws ConfigurationError for an empty path or a negative timeout.
   * @throws SqliteSchemaVersionError for a file written by a newer version of this package.
   * @throws SqliteSaverError when the file cannot be opened as a database.
   */
  constructor(options: SqliteSaverOptions) {
    if (typeof options.path !== "string" || options.path.trim() === "") {
      throw new ConfigurationError({
        setting: "path",
        message: 'SqliteSaver needs a database file path (or ":memory:")',
      });
    }
    const busyTimeoutMs = options.busyTimeoutMs ?? defaultBusyTimeoutMs;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
      throw new ConfigurationError({
        setting: "busyTimeoutMs",
        message: `SqliteSaver's busyTimeoutMs must be a whole number of milliseconds >= 0, got ${busyTimeoutMs}`,
      });
    }
    this.path = options.path;
    this.#busyTimeoutMs = busyTimeoutMs;
    const { db, statements } = openDatabase(options.path, busyTimeoutMs, options.durability);
    this.#db = db;
    this.#statements = statements;
  }

  /** The thread's newest checkpoint, or `undefined` for a thread never written. */
  async getLatest(threadId: string): Promise<StoredCheckpoint | undefined> {
    const row = this.#guard("getLatest", () => this.#statements.latest.get(threadId));
    return row ? parse(row.checkpoint) : undefined;
  }

  /** The thread's checkpoint with this id, or `undefined`. */
  async get(threadId: string, checkpointId: string): Promise<StoredCheckpoint | undefined> {
    const row = this.#guard("get", () => this.#statements.byId.get(threadId, checkpointId));
    return row ? parse(row.checkpoint) : undefined;
  }

  /**
   * Appends a checkpoint in one statement, which SQLite runs under its write lock: it is
   * written only if its `seq` is the thread's next (0 for a new thread), else refused with
   * `CheckpointConflictError` and nothing changes.
   */
  async put(checkpoint: Checkpoint): Promise<void> {
    const { threadId, seq, id } = checkpoint;
    const json = JSON.stringify(checkpoint);
    const written = this.#guard("put", () => {
      return this.#statements.append.run({ threadId, seq, id, json }).changes === 1;
    });
    if (written) return;
    const latestSeq = this.#guard("put", () => this.#statements.head.get(threadId)?.seq) ?? -1;
    throw new CheckpointConflictError({ threadId, seq, latestSeq });
  }

  /**
   * The thread's checkpoints, newest first, read a page at a time so a long history is never
   * held at once and no read stays open between pages.
   */
  async *list(
    threadId: string,
    options: ListCheckpointsOptions = {},
  ): AsyncGenerator<StoredCheckpoint> {
    yield* listInPages(
      (beforeSeq, limit) =>
        this.#guard("list", () => this.#statements.page.all(threadId, beforeSeq, limit)),
      options,
    );
  }

  /** Forgets a thread: every checkpoint of it is deleted in one statement. */
  async deleteThread(threadId: string): Promise<void> {
    this.#guard("deleteThread", () => this.#statements.deleteThread.run(threadId));
  }

  /** Closes the database. The saver cannot be used afterwards. */
  close(): void {
    if (this.#db.open) this.#db.close();
  }

  /** Runs one call on the open database, turning SQLite's failures into typed errors. */
  #guard<T>(operation: string, call: () => T): T {
    if (!this.#db.open) {
      throw new SqliteSaverError({
        path: this.path,
        operation,
        cause: new Error("the saver was closed"),
      });
    }
    return guarded(this.path, this.#busyTimeoutMs, operation, call);
  }
}

/** Runs `call`, turning SQLite's errors into `SqliteBusyError` or `SqliteSaverError`. */
function guarded<T>(path: string, busyTimeoutMs: number, operation: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (!(error instanceof Database.SqliteError)) throw error;
    if (error.code.startsWith("SQLITE_BUSY") || error.code.startsWith("SQLITE_LOCKED")) {
      throw new SqliteBusyError({ path, operation, timeoutMs: busyTimeoutMs, cause: error });
    }
    throw new SqliteSaverError({ path, operation, code: error.code, cause: error });
  }
}

function openDatabase(
  path: string,
  busyTimeoutMs: number,
  durability: SqliteSaverOptions["durability"],
): { db: Database.Database; statements: Statements } {
  if (path !== ":memory:") {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      throw new SqliteSaverError({ path, operation: "open", cause: error });
    }
  }
  return guarded(path, busyTimeoutMs, "open", () => {
    const db = new Database(path, { timeout: busyTimeoutMs });
    try {
      db.pragma("journal_mode = WAL");
      db.pragma(`synchronous = ${durability === "normal" ? "NORMAL" : "FULL"}`);
      migrate(db, path);
      return { db, statements: prepare(db) };
    } catch (error) {
      db.close();
      throw error;
    }
  });
}

function parse(json: string): StoredCheckpoint {
  return JSON.parse(json) as StoredCheckpoint;
}

function prepare(db: Database.Database): Statements {
  return {
    latest: db.prepare(
      "SELECT checkpoint FROM checkpoints WHERE thread_id = ? ORDER BY seq DESC LIMIT 1",
    ),
    byId: db.prepare(
      "SELECT checkpoint FROM checkpoints WHERE thread_id = ? AND checkpoint_id = ?",
    ),
    head: db.prepare("SELECT max(seq) AS seq FROM checkpoints WHERE thread_id = ?"),
    append: db.prepare(
      `INSERT INTO checkpoints (thread_id, seq, checkpoint_id, checkpoint)
       SELECT @threadId, @seq, @id, @json
       WHERE coalesce((SELECT max(seq) FROM checkpoints WHERE thread_id = @threadId), -1) = @seq - 1`,
    ),
    page: db.prepare(
      `SELECT seq, checkpoint FROM checkpoints
       WHERE thread_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    ),
    deleteThread: db.prepare("DELETE FROM checkpoints WHERE thread_id = ?"),
  };
}
