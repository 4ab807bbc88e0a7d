import { ConfigurationError, type Logger, registerSecret, silentLogger } from "@framework/core";
import {
  type Checkpoint,
  CheckpointConflictError,
  type Checkpointer,
  type ListCheckpointsOptions,
  listInPages,
  type StoredCheckpoint,
} from "@framework/graph";
import pg from "pg";
import { PostgresFencedError } from "./error/postgres-fenced-error.js";
import { ConnectionRedactor, describeTarget } from "./internal/connection-redactor.js";
import { isValidSchemaName, migrate, type Tables, tablesIn } from "./internal/postgres-schema.js";
import { lendInternals, type TransactionQuery } from "./internal/saver-internals.js";
import { typedFailure } from "./internal/typed-failure.js";

/** Options of {@link PostgresSaver}: a connection string, or a pool you own. */
export type PostgresSaverOptions = (
  | {
      /** `postgres://user:password@host:port/database`; the password never appears in errors or logs. */
      connectionString: string;
      pool?: never;
      /** Connections of the saver's own pool. Default 10. */
      maxConnections?: number;
      /**
       * Postgres cancels a checkpoint statement running longer than this (usually one waiting
       * for a lock), failing it with `PostgresStatementTimeoutError`. Default 30000.
       */
      statementTimeoutMs?: number;
    }
  | {
      /** A pool you configured (and will `end()`); its own `statement_timeout` applies. */
      pool: pg.Pool;
      connectionString?: never;
      maxConnections?: never;
      statementTimeoutMs?: never;
    }
) & {
  /** The Postgres schema holding the tables, created when missing. Default `"public"`. */
  schema?: string;
  /** Where the saver reports connections that broke while idle. Default: silent. */
  logger?: Logger;
};

/**
 * A row that must exist for a fenced `put` to write, e.g. a run's lease:
 * `{ table: "crew_runs", where: { run_id: "r1", lease_epoch: 3 } }`.
 */
export interface PostgresFence {
  /** A table in the saver's schema (letters, digits and `_`). */
  table: string;
  /** Columns (letters, digits and `_`) and the values the row must hold, at least one. */
  where: Readonly<Record<string, string | number>>;
}

const defaults = { maxConnections: 10, statementTimeoutMs: 30_000, schema: "public" };

/**
 * A {@link Checkpointer} in PostgreSQL (node-postgres), for crews deployed behind a server or
 * run by several processes. Each checkpoint is a row holding its JSON text; a `threads` row
 * per thread holds its head `seq`, and `put` appends and advances the head in one statement,
 * so of two writers racing for one `seq` exactly one succeeds and the other gets
 * `CheckpointConflictError`.
 *
 * The tables are created on first use (or by {@link PostgresSaver.setup}); failures are
 * `PostgresUnavailableError`, `PostgresStatementTimeoutError` or `PostgresSaverError`, none
 * of which ever shows the connection's password.
 *
 * @example
 * const saver = new PostgresSaver({ connectionString: process.env.DATABASE_URL! });
 * const app = graph.compile({ checkpointer: saver });
 * // ...
 * await saver.close();
 */
export class PostgresSaver implements Checkpointer {
  /** The Postgres schema holding the tables. */
  readonly schema: string;
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #tables: Tables;
  readonly #redactor: ConnectionRedactor;
  readonly #target: string | undefined;
  readonly #statementTimeoutMs: number | undefined;
  #ready: Promise<void> | undefined;

  /**
   * Creates the saver; it connects on first use.
   *
   * @throws ConfigurationError when neither or both of `connectionString` and `pool` are
   * given, or the schema name or a number is invalid.
   */
  constructor(options: PostgresSaverOptions) {
    const schema = options.schema ?? defaults.schema;
    if (!isValidSchemaName(schema)) {
      throw new ConfigurationError({
        setting: "schema",
        message: `PostgresSaver's schema must be letters, digits and "_" (at most 63), got "${schema}"`,
      });
    }
    this.schema = schema;
    this.#tables = tablesIn(schema);
    const logger = options.logger ?? silentLogger;
    if (options.pool !== undefined) {
      if (options.connectionString !== undefined) throw bothGiven();
      this.#pool = options.pool;
      this.#ownsPool = false;
      this.#redactor = new ConnectionRedactor(
        ConnectionRedactor.passwordsOf(
          options.pool.options.connectionString,
          options.pool.options.password,
        ),
      );
      this.#target = undefined;
      this.#statementTimeoutMs = undefined;
    } else {
      const { connectionString } = options;
      if (typeof connectionString !== "string" || connectionString.trim() === "") {
        throw new ConfigurationError({
          setting: "connectionString",
          message: "PostgresSaver needs a connectionString or a pool",
        });
      }
      const passwords = ConnectionRedactor.passwordsOf(connectionString, undefined);
      for (const password of passwords) registerSecret(password);
      this.#redactor = new ConnectionRedactor(passwords);
      this.#target = describeTarget(connectionString);
      this.#statementTimeoutMs = positiveInteger(
        "statementTimeoutMs",
        options.statementTimeoutMs ?? defaults.statementTimeoutMs,
      );
      this.#pool = new pg.Pool({
        connectionString,
        max: positiveInteger("maxConnections", options.maxConnections ?? defaults.maxConnections),
        statement_timeout: this.#statementTimeoutMs,
        connectionTimeoutMillis: 10_000,
      });
      this.#ownsPool = true;
    }
    // A connection that breaks while idle (a server restart) is dropped by the pool, which
    // emits this; without a listener the process would crash.
    this.#pool.on("error", (error) => {
      const failure = typedFailure(error, this.#context("idle connection"));
      logger.warn(`PostgresSaver: ${failure.message}; the pool will reconnect`);
    });
    lendInternals(this, {
      pool: this.#pool,
      query: <R extends pg.QueryResultRow>(
        operation: string,
        text: string,
        values: unknown[] = [],
      ) => this.#query<R>(operation, text, values),
      transaction: (operation, work) => this.#transaction(operation, work),
    });
  }

  /**
   * Creates the schema and tables, or migrates them to this version, idempotently and safely
   * when many processes call it at once (an advisory lock serialises them). Every other method
   * calls it first, once; call it yourself to fail fast at startup.
   */
  setup(): Promise<void> {
    this.#ready ??= this.#migrate().catch((error: unknown) => {
      // A failed setup (the server was down) is tried again by the next call.
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /**
   * A view of this saver whose `put` writes only while `fence.table` has a row holding every
   * value of `fence.where`, checked in the statement that writes (under a share lock, so a
   * concurrent change of that row waits for the put or makes it fail). A put the fence
   * refuses writes nothing and throws `PostgresFencedError`. Reads are the saver's.
   *
   * `fence` may be a function of the checkpoint being put, for a view that writes for many
   * runs or threads, each under its own lease; what it throws, the put rejects with.
   *
   * @throws ConfigurationError when a table or column name is invalid or `where` is empty (for
   *   a function, from the put).
   */
  fenced(fence: PostgresFence | ((checkpoint: Checkpoint) => PostgresFence)): Checkpointer {
    let guardOf: (checkpoint: Checkpoint) => FenceGuard;
    if (typeof fence === "function") {
      guardOf = (checkpoint) => this.#guard(fence(checkpoint));
    } else {
      const guard = this.#guard(fence);
      guardOf = () => guard;
    }
    return {
      getLatest: (threadId) => this.getLatest(threadId),
      get: (threadId, checkpointId) => this.get(threadId, checkpointId),
      put: async (checkpoint) => this.#put(checkpoint, guardOf(checkpoint)),
      list: (threadId, options) => this.list(threadId, options),
      deleteThread: (threadId) => this.deleteThread(threadId),
    };
  }

  /** The check a fenced put makes in its statement. */
  #guard(fence: PostgresFence): FenceGuard {
    const columns = Object.keys(fence.where);
    for (const name of [fence.table, ...columns]) {
      if (!isValidSchemaName(name)) {
        throw new ConfigurationError({
          setting: "fence",
          message: `A fence names tables and columns with letters, digits and "_", got "${name}"`,
        });
      }
    }
    if (columns.length === 0) {
      throw new ConfigurationError({
        setting: "fence",
        message: "A fence needs a column to match",
      });
    }
    const values = columns.map((column) => fence.where[column]!);
    const row = (first: number) =>
      `SELECT 1 FROM "${this.schema}"."${fence.table}" WHERE ${columns
        .map((column, index) => `"${column}" = $${index + first}`)
        .join(" AND ")}`;
    return { table: fence.table, row, values };
  }

  /** The thread's newest checkpoint, or `undefined` for a thread never written. */
  async getLatest(threadId: string): Promise<StoredCheckpoint | undefined> {
    const rows = await this.#query<{ checkpoint: string }>(
      "getLatest",
      `SELECT checkpoint FROM ${this.#tables.checkpoints}
       WHERE thread_id = $1 ORDER BY seq DESC LIMIT 1`,
      [threadId],
    );
    return rows[0] ? parse(rows[0].checkpoint) : undefined;
  }

  /** The thread's checkpoint with this id, or `undefined`. */
  async get(threadId: string, checkpointId: string): Promise<StoredCheckpoint | undefined> {
    const rows = await this.#query<{ checkpoint: string }>(
      "get",
      `SELECT checkpoint FROM ${this.#tables.checkpoints}
       WHERE thread_id = $1 AND checkpoint_id = $2`,
      [threadId, checkpointId],
    );
    return rows[0] ? parse(rows[0].checkpoint) : undefined;
  }

  /**
   * Appends a checkpoint and advances its thread's head in one statement: it is written only
   * if its `seq` is the thread's next (0 creates the thread), else refused with
   * `CheckpointConflictError` and nothing changes.
   */
  put(checkpoint: Checkpoint): Promise<void> {
    return this.#put(checkpoint, undefined);
  }

  async #put(checkpoint: Checkpoint, fence: FenceGuard | undefined): Promise<void> {
    const { threadId, seq, id } = checkpoint;
    const json = JSON.stringify(checkpoint);
    const { threads, checkpoints } = this.#tables;
    // FOR SHARE: a writer changing the fence row (taking the lease over) waits for this put,
    // and this put, if it comes second, re-reads the changed row and writes nothing.
    const fenceCte = fence ? `fence AS (${fence.row(5)} FOR SHARE), ` : "";
    const held = "EXISTS (SELECT 1 FROM fence)";
    const head =
      seq === 0
        ? `INSERT INTO ${threads} (thread_id, head_seq)
           ${fence ? `SELECT $1, 0 WHERE ${held}` : "VALUES ($1, 0)"}
           ON CONFLICT (thread_id) DO NOTHING RETURNING thread_id`
        : `UPDATE ${threads} SET head_seq = $2, updated_at = now()
           WHERE thread_id = $1 AND head_seq = $2::bigint - 1 ${fence ? `AND ${held}` : ""}
           RETURNING thread_id`;
    const rows = await this.#query(
      "put",
      `WITH ${fenceCte}head AS (${head})
       INSERT INTO ${checkpoints} (thread_id, seq, checkpoint_id, checkpoint)
       SELECT thread_id, $2::bigint, $3, $4 FROM head RETURNING seq`,
      [threadId, seq, id, json, ...(fence?.values ?? [])],
    );
    if (rows.length === 1) return;
    if (fence) {
      const rows = await this.#query("put", fence.row(1), [...fence.values]);
      if (rows.length === 0) throw new PostgresFencedError({ threadId, seq, table: fence.table });
    }
    const current = await this.#query<{ head_seq: string }>(
      "put",
      `SELECT head_seq FROM ${threads} WHERE thread_id = $1`,
      [threadId],
    );
    const latestSeq = current[0] ? Number(current[0].head_seq) : -1;
    throw new CheckpointConflictError({ threadId, seq, latestSeq });
  }

  /** The thread's checkpoints, newest first, read a page at a time. */
  async *list(
    threadId: string,
    options: ListCheckpointsOptions = {},
  ): AsyncGenerator<StoredCheckpoint> {
    yield* listInPages(
      (beforeSeq, limit) =>
        this.#query<{ seq: string; checkpoint: string }>(
          "list",
          `SELECT seq, checkpoint FROM ${this.#tables.checkpoints}
           WHERE thread_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
          [threadId, beforeSeq, limit],
        ),
      options,
    );
  }

  /** Forgets a thread: its head row and, by cascade, every checkpoint, in one statement. */
  async deleteThread(threadId: string): Promise<void> {
    await this.#query("deleteThread", `DELETE FROM ${this.#tables.threads} WHERE thread_id = $1`, [
      threadId,
    ]);
  }

  /** Ends the saver's own pool; a pool passed in is left to its owner. */
  async close(): Promise<void> {
    if (this.#ownsPool && !this.#pool.ended) await this.#pool.end();
  }

  async #migrate(): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw typedFailure(error, this.#context("setup"));
    }
    try {
      await migrate(client, this.schema);
      client.release();
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw typedFailure(error, this.#context("setup"));
    }
  }

  async #query<R extends pg.QueryResultRow>(
    operation: string,
    text: string,
    values: unknown[],
  ): Promise<R[]> {
    await this.setup();
    try {
      return (await this.#pool.query<R>(text, values)).rows;
    } catch (error) {
      throw typedFailure(error, this.#context(operation));
    }
  }

  async #transaction<T>(
    operation: string,
    work: (query: TransactionQuery) => Promise<T>,
  ): Promise<T> {
    await this.setup();
    const context = this.#context(operation);
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw typedFailure(error, context);
    }
    const query: TransactionQuery = async <R extends pg.QueryResultRow>(
      text: string,
      values: unknown[] = [],
    ) => {
      try {
        return (await client.query<R>(text, values)).rows;
      } catch (error) {
        throw typedFailure(error, context);
      }
    };
    try {
      await query("BEGIN");
      const result = await work(query);
      await query("COMMIT");
      client.release();
      return result;
    } catch (error) {
      // A connection that cannot even roll back is broken: the pool must not lend it again.
      const rolledBack = await client.query("ROLLBACK").then(
        () => true,
        () => false,
      );
      client.release(!rolledBack);
      throw error;
    }
  }

  #context(operation: string) {
    return {
      operation,
      target: this.#target,
      redactor: this.#redactor,
      statementTimeoutMs: this.#statementTimeoutMs,
    };
  }
}

/** A fence as SQL: the row query with its values numbered from `first`, and the values. */
interface FenceGuard {
  table: string;
  row: (first: number) => string;
  values: readonly (string | number)[];
}

function bothGiven(): ConfigurationError {
  return new ConfigurationError({
    setting: "connectionString",
    message: "PostgresSaver takes a connectionString or a pool, not both",
  });
}

function positiveInteger(setting: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigurationError({
      setting,
      message: `PostgresSaver's ${setting} must be a whole number above 0, got ${value}`,
    });
  }
  return value;
}

function parse(json: string): StoredCheckpoint {
  return JSON.parse(json) as StoredCheckpoint;
}
