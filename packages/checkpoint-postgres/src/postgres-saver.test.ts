import { inspect } from "node:util";
import { ConfigurationError } from "@framework/core";
import { CheckpointConflictError } from "@framework/graph";
import {
  runCheckpointerConformance,
  checkpointAt as testCheckpoint,
} from "@framework/graph/conformance";
import { uniqueName } from "@framework/testing";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresFencedError } from "./error/postgres-fenced-error.js";
import { PostgresSaverError } from "./error/postgres-saver-error.js";
import { PostgresSchemaVersionError } from "./error/postgres-schema-version-error.js";
import { PostgresStatementTimeoutError } from "./error/postgres-statement-timeout-error.js";
import { PostgresUnavailableError } from "./error/postgres-unavailable-error.js";
import { schemaVersion } from "./internal/postgres-schema.js";
import { internalsOf } from "./internal/saver-internals.js";
import { PostgresSaver } from "./postgres-saver.js";
import { dropSchema, postgresUrl, sql, withPassword } from "./test-postgres.js";

/** A password that must never appear in output (the secret guard also watches for it). */
const password = "pg-test-password-5e6f7a8b9c";

const schemas: string[] = [];
function schemaFor(label: string): string {
  const schema = uniqueName(label);
  schemas.push(schema);
  return schema;
}

async function seqsOf(saver: PostgresSaver, threadId: string): Promise<number[]> {
  const seqs: number[] = [];
  for await (const checkpoint of saver.list(threadId)) seqs.push(checkpoint.seq);
  return seqs;
}

/** Resolves once some session of the server waits for a row lock (the racing put). */
async function waitForLockWait(store: PostgresSaver): Promise<void> {
  for (;;) {
    const rows = await internalsOf(store).query(
      "locks",
      "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR SHARE%'",
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(postgresUrl === undefined)("PostgresSaver", () => {
  const url = postgresUrl!;
  const savers: PostgresSaver[] = [];
  const saver = (options: { schema?: string; statementTimeoutMs?: number } = {}) => {
    const created = new PostgresSaver({
      connectionString: url,
      schema: options.schema ?? schemaFor("s"),
      ...(options.statementTimeoutMs ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
    });
    savers.push(created);
    return created;
  };
  afterAll(async () => {
    await Promise.all(savers.map((created) => created.close()));
    for (const schema of schemas) await dropSchema(schema);
  });

  // Thread ids are unique per conformance test, so the suite shares one schema.
  const conformanceSchema = schemaFor("conformance");
  runCheckpointerConformance({
    name: "PostgresSaver",
    createCheckpointer: () => saver({ schema: conformanceSchema }),
    // Another pool, so the racing puts travel on different connections.
    createSecondClient: () => saver({ schema: conformanceSchema }),
    destroyCheckpointer: (created) => (created as PostgresSaver).close(),
  });

  // The fenced view is a Checkpointer too: with its fence row in place it behaves as the saver.
  const fencedSchema = schemaFor("fenced");
  const leases = `CREATE TABLE IF NOT EXISTS "${fencedSchema}".leases (run_id text PRIMARY KEY, epoch bigint)`;
  runCheckpointerConformance({
    name: "PostgresSaver.fenced",
    createCheckpointer: async () => {
      const created = saver({ schema: fencedSchema });
      await created.setup();
      await sql(leases);
      await sql(`INSERT INTO "${fencedSchema}".leases VALUES ('r', 1) ON CONFLICT DO NOTHING`);
      return created.fenced({ table: "leases", where: { run_id: "r", epoch: 1 } });
    },
    createSecondClient: () =>
      saver({ schema: fencedSchema }).fenced({ table: "leases", where: { run_id: "r", epoch: 1 } }),
  });

  describe("fenced puts", () => {
    async function leased(label: string) {
      const store = saver({ schema: schemaFor(label) });
      await store.setup();
      await internalsOf(store).query(
        "create",
        `CREATE TABLE "${store.schema}".leases (run_id text, epoch bigint)`,
      );
      await internalsOf(store).query(
        "lease",
        `INSERT INTO "${store.schema}".leases VALUES ('r', 1)`,
      );
      const fenced = store.fenced({ table: "leases", where: { run_id: "r", epoch: 1 } });
      return { store, fenced };
    }

    it("write while the fence row holds, and write nothing once it moved", async () => {
      const { store, fenced } = await leased("fence");
      await fenced.put(testCheckpoint("t", 0));
      await fenced.put(testCheckpoint("t", 1));
      await internalsOf(store).query("lease", `UPDATE "${store.schema}".leases SET epoch = 2`);

      const refused = await fenced.put(testCheckpoint("t", 2)).catch((e: unknown) => e);
      expect(PostgresFencedError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ threadId: "t", seq: 2, table: "leases" });
      const first = await fenced.put(testCheckpoint("other", 0)).catch((e: unknown) => e);
      expect(PostgresFencedError.isInstance(first)).toBe(true);
      expect(await seqsOf(store, "t")).toEqual([1, 0]);
      expect(await store.getLatest("other")).toBeUndefined();
      // The saver itself is not fenced, and a conflict is still a conflict.
      await store.put(testCheckpoint("t", 2));
      await internalsOf(store).query("lease", `UPDATE "${store.schema}".leases SET epoch = 1`);
      const stale = await fenced.put(testCheckpoint("t", 2)).catch((e: unknown) => e);
      expect(CheckpointConflictError.isInstance(stale)).toBe(true);
    });

    it("fences each put by the fence its checkpoint names, and rejects with what naming it throws", async () => {
      const { store } = await leased("fence_of");
      // The lease this writer holds per thread: thread "t" writes under run "r"'s row.
      const epochs = new Map([["t", 1]]);
      const fenced = store.fenced((checkpoint) => {
        const epoch = epochs.get(checkpoint.threadId);
        if (epoch === undefined) throw new Error(`no lease on ${checkpoint.threadId}`);
        return { table: "leases", where: { run_id: "r", epoch } };
      });
      await fenced.put(testCheckpoint("t", 0));
      epochs.set("t", 2);
      const refused = await fenced.put(testCheckpoint("t", 1)).catch((e: unknown) => e);
      expect(PostgresFencedError.isInstance(refused)).toBe(true);
      epochs.clear();
      await expect(fenced.put(testCheckpoint("t", 1))).rejects.toThrow("no lease on t");
      expect(await seqsOf(store, "t")).toEqual([0]);
    });

    it("waits for a lease change being committed, then writes nothing", async () => {
      const { store, fenced } = await leased("fence_race");
      await fenced.put(testCheckpoint("t", 0));
      const taker = new pg.Client({ connectionString: url });
      await taker.connect();
      try {
        await taker.query("BEGIN");
        await taker.query(`UPDATE "${store.schema}".leases SET epoch = 2`);
        const put = fenced.put(testCheckpoint("t", 1)).catch((e: unknown) => e);
        // The put holds no lock yet only if it has not reached the row: wait until it waits.
        await waitForLockWait(store);
        await taker.query("COMMIT");
        expect(PostgresFencedError.isInstance(await put)).toBe(true);
      } finally {
        await taker.end();
      }
      expect(await seqsOf(store, "t")).toEqual([0]);
    });
  });

  it("round-trips NUL characters and keeps key order", async () => {
    const store = saver();
    const writes = { zeta: "a\u0000b", alpha: { "\u0000": 1, b: 2, a: 3 }, "10": 1, "2": 2 };
    await store.put(testCheckpoint("t", 0, writes));
    const read = await store.getLatest("t");
    expect(JSON.stringify(read)).toBe(JSON.stringify(testCheckpoint("t", 0, writes)));
  });

  it("finds a checkpoint by its id, within its thread only", async () => {
    const store = saver();
    await store.put(testCheckpoint("t", 0));
    await store.put(testCheckpoint("t", 1, { second: true }));
    expect(await store.get("t", "t-1")).toEqual(testCheckpoint("t", 1, { second: true }));
    expect(await store.get("t", "t-7")).toBeUndefined();
    expect(await store.get("u", "t-1")).toBeUndefined();
  });

  it("accepts only the thread's next seq: 0 first, then one more than the head", async () => {
    const store = saver();
    await expect(store.put(testCheckpoint("t", 3))).rejects.toMatchObject({
      name: "CheckpointConflictError",
      latestSeq: -1,
    });
    await store.put(testCheckpoint("t", 0));
    await expect(store.put(testCheckpoint("t", 0))).rejects.toSatisfy(
      CheckpointConflictError.isInstance,
    );
    await expect(store.put(testCheckpoint("t", 2))).rejects.toMatchObject({ latestSeq: 0 });
    await store.put(testCheckpoint("t", 1));
    expect(await seqsOf(store, "t")).toEqual([1, 0]);
  });

  it("lets exactly one of two clients racing for a seq win", async () => {
    const schema = schemaFor("race");
    const first = saver({ schema });
    const second = saver({ schema });
    await Promise.all([first.setup(), second.setup()]);
    for (let seq = 0; seq < 25; seq++) {
      const results = await Promise.allSettled([
        first.put(testCheckpoint("race", seq, { by: "first" })),
        second.put(testCheckpoint("race", seq, { by: "second" })),
      ]);
      const won = results.filter((result) => result.status === "fulfilled");
      expect(won).toHaveLength(1);
      const lost = results.find((result) => result.status === "rejected");
      expect(CheckpointConflictError.isInstance(lost?.reason)).toBe(true);
    }
    expect(await seqsOf(first, "race")).toEqual(Array.from({ length: 25 }, (_, i) => 24 - i));
  });

  it("pages through a history longer than one read", async () => {
    const store = saver();
    for (let seq = 0; seq < 140; seq++) await store.put(testCheckpoint("t", seq));
    expect(await seqsOf(store, "t")).toEqual(Array.from({ length: 140 }, (_, i) => 139 - i));
    const some: number[] = [];
    for await (const checkpoint of store.list("t", { beforeSeq: 100, limit: 70 })) {
      some.push(checkpoint.seq);
    }
    expect(some).toEqual(Array.from({ length: 70 }, (_, i) => 99 - i));
  });

  it("sets up one schema once when ten clients call setup() at the same moment", async () => {
    const schema = schemaFor("setup");
    const clients = Array.from({ length: 10 }, () => saver({ schema }));
    await Promise.all(clients.map((client) => client.setup()));
    await Promise.all(clients.map((client) => client.setup()));
    const { rows } = await sql(`SELECT version FROM "${schema}".checkpoint_schema_migrations`);
    expect(rows).toEqual([{ version: schemaVersion }]);
    await clients[3]!.put(testCheckpoint("t", 0));
    expect((await clients[7]!.getLatest("t"))?.seq).toBe(0);
  });

  it("refuses a schema migrated by a newer version, changing nothing", async () => {
    const schema = schemaFor("future");
    await saver({ schema }).setup();
    await sql(`INSERT INTO "${schema}".checkpoint_schema_migrations (version) VALUES (99)`);
    const newer = saver({ schema });
    await expect(newer.getLatest("t")).rejects.toSatisfy(
      (error: unknown) =>
        PostgresSchemaVersionError.isInstance(error) &&
        error.found === 99 &&
        error.supported === schemaVersion,
    );
  });

  it("fails a statement that waits past the statement timeout, and works after", async () => {
    const schema = schemaFor("timeout");
    const store = saver({ schema, statementTimeoutMs: 200 });
    await store.put(testCheckpoint("t", 0));
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query(`LOCK TABLE "${schema}".checkpoint_threads IN ACCESS EXCLUSIVE MODE`);
    const blocked = store.put(testCheckpoint("t", 1));
    await expect(blocked).rejects.toSatisfy(PostgresStatementTimeoutError.isInstance);
    await expect(blocked).rejects.toMatchObject({ operation: "put", timeoutMs: 200 });
    await locker.query("ROLLBACK");
    await locker.end();
    await store.put(testCheckpoint("t", 1));
    expect(await seqsOf(store, "t")).toEqual([1, 0]);
  });

  it("never shows the connection's password: errors, causes and pool logs", async () => {
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn: (line: string) => warnings.push(line),
      error() {},
    };
    const shown = (error: unknown) =>
      [String(error), inspect(error, { depth: 5 }), JSON.stringify(error)].join("\n");

    // A server that refuses connections.
    const refused = new PostgresSaver({
      connectionString: `postgres://app:${password}@127.0.0.1:1/app`,
      logger,
    });
    const unreachable = await refused.getLatest("t").catch((error: unknown) => error);
    await refused.close();
    expect(PostgresUnavailableError.isInstance(unreachable)).toBe(true);
    expect(shown(unreachable)).not.toContain(password);
    expect((unreachable as Error).message).toContain("127.0.0.1:1/app");

    // A database that does not exist on a server that is up.
    const missing = new URL(withPassword(url, password));
    missing.pathname = "/no_such_database";
    const wrongDatabase = new PostgresSaver({ connectionString: missing.toString(), logger });
    const refusedDb = await wrongDatabase.setup().catch((error: unknown) => error);
    await wrongDatabase.close();
    expect(PostgresSaverError.isInstance(refusedDb)).toBe(true);
    expect(refusedDb).toMatchObject({ code: "3D000" });
    expect(shown(refusedDb)).not.toContain(password);

    // A connection string the parser rejects, with the password inside it.
    const malformed = new PostgresSaver({
      connectionString: `postgres://app:${password}@[not-a-host/app`,
      logger,
    });
    const unparsable = await malformed.setup().catch((error: unknown) => error);
    await malformed.close();
    expect(unparsable).toBeInstanceOf(Error);
    expect(shown(unparsable)).not.toContain(password);

    // An idle connection killed by the server: the pool's error goes to the logger.
    const schema = schemaFor("redact");
    const live = new PostgresSaver({
      connectionString: withPassword(url, password),
      schema,
      logger,
    });
    savers.push(live);
    await live.put(testCheckpoint("t", 0));
    await sql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE pid <> pg_backend_pid() AND datname = current_database() AND state = 'idle'
         AND query LIKE '%' || $1 || '%'`,
      [schema],
    );
    await expect.poll(() => warnings.length).toBeGreaterThan(0);
    expect(warnings.join("\n")).not.toContain(password);
    expect(warnings.join("\n")).toMatch(/idle connection/);
    expect((await live.getLatest("t"))?.seq).toBe(0);
  });

  it("rejects bad options with ConfigurationError", () => {
    const setting = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return ConfigurationError.isInstance(error) ? error.setting : "other";
      }
      return "none";
    };
    expect(setting(() => new PostgresSaver({ connectionString: "" }))).toBe("connectionString");
    expect(setting(() => new PostgresSaver({ connectionString: url, schema: 'x"; drop' }))).toBe(
      "schema",
    );
    expect(setting(() => new PostgresSaver({ connectionString: url, statementTimeoutMs: 0 }))).toBe(
      "statementTimeoutMs",
    );
    const pool = new pg.Pool({ connectionString: url });
    expect(setting(() => new PostgresSaver({ pool, connectionString: url } as never))).toBe(
      "connectionString",
    );
    return pool.end();
  });

  it("works on a pool it was given and leaves that pool open on close", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const store = new PostgresSaver({ pool, schema: schemaFor("pool") });
    await store.put(testCheckpoint("t", 0));
    await store.close();
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });
});
