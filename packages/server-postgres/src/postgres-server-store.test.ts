import { PostgresFencedError, type PostgresSaver } from "@framework/checkpoint-postgres";
import { checkpointAt } from "@framework/graph/conformance";
import { ServerSchemaVersionError } from "@framework/server";
import { pendingRun, runServerStoreConformance } from "@framework/server/conformance";
import { uniqueName } from "@framework/testing";
import { afterAll, describe, expect, it } from "vitest";
import { ThreadLeaseLostError } from "./error/thread-lease-lost-error.js";
import { PostgresServerStore } from "./postgres-server-store.js";
import { dropSchema, postgresUrl, sql, testSaver } from "./test-postgres.js";

const schema = uniqueName("store");
const savers = new Map<PostgresServerStore, PostgresSaver>();

/** A store over its own saver (its own pool): a second one is another instance's client. */
function storeClient(): PostgresServerStore {
  const saver = testSaver(schema);
  const store = new PostgresServerStore({ checkpointer: saver });
  savers.set(store, saver);
  return store;
}

afterAll(async () => {
  if (postgresUrl !== undefined) await dropSchema(schema);
});

describe.skipIf(postgresUrl === undefined)("PostgresServerStore", () => {
  runServerStoreConformance({
    name: "PostgresServerStore (two pools on one schema)",
    createStore: storeClient,
    createSecondClient: storeClient,
    async destroyStore(store) {
      await store.close();
      await savers.get(store as PostgresServerStore)?.close();
      savers.delete(store as PostgresServerStore);
    },
  });

  it("keeps its tables beside the checkpoints and refuses a schema migrated by a newer version", async () => {
    const own = uniqueName("newer");
    const saver = testSaver(own);
    try {
      await new PostgresServerStore({ checkpointer: saver }).setup();
      const { rows } = await sql<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1",
        [own],
      );
      expect(rows.map((row) => row.table_name)).toEqual(
        expect.arrayContaining([
          "checkpoints",
          "server_runs",
          "server_threads",
          "server_run_events",
          "server_thread_leases",
          "server_crons",
        ]),
      );
      await sql(`INSERT INTO "${own}".server_schema_migrations (version) VALUES (99)`);
      const refused = await new PostgresServerStore({ checkpointer: saver })
        .setup()
        .catch((error: unknown) => error);
      expect(ServerSchemaVersionError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ found: 99, supported: 3 });
    } finally {
      await saver.close();
      await dropSchema(own);
    }
  });

  it("sets up once when many instances start together", async () => {
    const own = uniqueName("together");
    const saverList = Array.from({ length: 4 }, () => testSaver(own));
    try {
      await Promise.all(
        saverList.map((saver) => new PostgresServerStore({ checkpointer: saver }).setup()),
      );
      const { rows } = await sql(
        `SELECT version FROM "${own}".server_schema_migrations ORDER BY version`,
      );
      expect(rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);
    } finally {
      await Promise.all(saverList.map((saver) => saver.close()));
      await dropSchema(own);
    }
  });

  it("fences a lease holder's checkpoints and events once another process took the thread", async () => {
    const own = uniqueName("fence");
    const saver = testSaver(own);
    const store = new PostgresServerStore({ checkpointer: saver });
    try {
      await store.createThread({ threadId: "t", owner: "u", metadata: {} }, { ifExists: "raise" });
      await store.insertRun(pendingRun("u", "t", "r"));
      expect(await store.leaseThread("t")).toBe(true);
      const fenced = store.leaseFencedCheckpointer();
      await fenced.put(checkpointAt("t", 0));
      expect(await store.appendEvents("r", [{ event: "custom", data: 1 }])).toHaveLength(1);
      expect(await store.holdsThread("t")).toBe(true);

      // What a process taking the thread over writes while this one is paused.
      await sql(`UPDATE "${own}".server_thread_leases SET token = 'other' WHERE thread_id = 't'`);
      const refused = await fenced.put(checkpointAt("t", 1)).catch((error: unknown) => error);
      expect(PostgresFencedError.isInstance(refused)).toBe(true);
      expect(await store.appendEvents("r", [{ event: "custom", data: 2 }])).toEqual([]);
      expect(await store.holdsThread("t")).toBe(false);
      // Nor once the other released it.
      await sql(`DELETE FROM "${own}".server_thread_leases`);
      expect(await store.appendEvents("r", [{ event: "custom", data: 3 }])).toEqual([]);
      expect((await store.readEvents("u", "r", 0, 10)).map((event) => event.data)).toEqual([1]);
      const seqs: number[] = [];
      for await (const checkpoint of saver.list("t")) seqs.push(checkpoint.seq);
      expect(seqs).toEqual([0]);

      // Released, the thread takes no fenced write from this store until leased again.
      await store.releaseThread("t");
      const unleased = await fenced.put(checkpointAt("t", 1)).catch((error: unknown) => error);
      expect(ThreadLeaseLostError.isInstance(unleased)).toBe(true);
    } finally {
      await store.close();
      await saver.close();
      await dropSchema(own);
    }
  });
});
