import type { PostgresSaver } from "@framework/checkpoint-postgres";
import { ServerSchemaVersionError } from "@framework/server";
import { runServerStoreConformance } from "@framework/server/conformance";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresServerStore } from "./postgres-server-store.js";
import { dropSchema, postgresUrl, sql, testSaver, uniqueSchema } from "./test-postgres.js";

const schema = uniqueSchema("store");
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
    const own = uniqueSchema("newer");
    const saver = testSaver(own);
    try {
      await new PostgresServerStore({ checkpointer: saver }).setup();
      const { rows } = await sql(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1",
        [own],
      );
      expect(rows.map((row: { table_name: string }) => row.table_name)).toEqual(
        expect.arrayContaining([
          "checkpoints",
          "server_runs",
          "server_threads",
          "server_run_events",
          "server_crons",
        ]),
      );
      await sql(`INSERT INTO "${own}".server_schema_migrations (version) VALUES (99)`);
      const refused = await new PostgresServerStore({ checkpointer: saver })
        .setup()
        .catch((error: unknown) => error);
      expect(ServerSchemaVersionError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ found: 99, supported: 2 });
    } finally {
      await saver.close();
      await dropSchema(own);
    }
  });

  it("sets up once when many instances start together", async () => {
    const own = uniqueSchema("together");
    const saverList = Array.from({ length: 4 }, () => testSaver(own));
    try {
      await Promise.all(
        saverList.map((saver) => new PostgresServerStore({ checkpointer: saver }).setup()),
      );
      const { rows } = await sql(
        `SELECT version FROM "${own}".server_schema_migrations ORDER BY version`,
      );
      expect(rows).toEqual([{ version: 1 }, { version: 2 }]);
    } finally {
      await Promise.all(saverList.map((saver) => saver.close()));
      await dropSchema(own);
    }
  });
});
