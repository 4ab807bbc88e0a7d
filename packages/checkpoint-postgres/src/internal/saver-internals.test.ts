import { ConfigurationError } from "@framework/core";
import { uniqueName } from "@framework/testing";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresSaverError } from "../error/postgres-saver-error.js";
import { PostgresSaver } from "../postgres-saver.js";
import { dropSchema, postgresUrl, withPassword } from "../test-postgres.js";
import { internalsOf } from "./saver-internals.js";

describe("internalsOf", () => {
  it("refuses anything but a PostgresSaver, naming the setting", () => {
    const refused = (() => {
      try {
        internalsOf({});
      } catch (error) {
        return error;
      }
    })();
    expect(ConfigurationError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ setting: "checkpointer" });
  });

  it("keeps the pool and query off the saver's own surface", () => {
    const saver = new PostgresSaver({ connectionString: "postgres://127.0.0.1:1/none" });
    expect("pool" in saver).toBe(false);
    expect("query" in saver).toBe(false);
    expect(internalsOf(saver).pool).toBeInstanceOf(pg.Pool);
    return saver.close();
  });
});

describe.skipIf(postgresUrl === undefined)("internalsOf a live saver", () => {
  const url = postgresUrl!;
  const schema = uniqueName("internals");
  const password = "internals-password-3c4d5e";
  afterAll(() => dropSchema(schema));

  it("lends the pool it was given", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const saver = new PostgresSaver({ pool, schema });
    expect(internalsOf(saver).pool).toBe(pool);
    await saver.close();
    await pool.end();
  });

  it("queries after setting the schema up, and fails with the package's typed errors", async () => {
    const saver = new PostgresSaver({ connectionString: withPassword(url, password), schema });
    try {
      const { query } = internalsOf(saver);
      expect(
        await query<{ n: number }>(
          "count",
          `SELECT count(*)::int AS n FROM "${schema}".checkpoints`,
        ),
      ).toEqual([{ n: 0 }]);
      const refused = await query("bad statement", "SELECT * FROM no_such_table").catch(
        (error: unknown) => error,
      );
      expect(PostgresSaverError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ operation: "bad statement", code: "42P01" });
      expect(String((refused as Error).message)).not.toContain(password);
    } finally {
      await saver.close();
    }
  });

  it("commits a transaction whose work resolves and rolls back one whose work throws", async () => {
    const saver = new PostgresSaver({ connectionString: url, schema });
    try {
      const { query, transaction } = internalsOf(saver);
      await query("table", `CREATE TABLE "${schema}".notes (note text NOT NULL)`);
      const kept = await transaction("keep", async (inside) => {
        await inside(`INSERT INTO "${schema}".notes VALUES ($1)`, ["kept"]);
        return "done";
      });
      expect(kept).toBe("done");
      const failure = new Error("changed my mind");
      const dropped = await transaction("drop", async (inside) => {
        await inside(`INSERT INTO "${schema}".notes VALUES ($1)`, ["dropped"]);
        throw failure;
      }).catch((error: unknown) => error);
      expect(dropped).toBe(failure);
      const refused = await transaction("bad statement", (inside) =>
        inside("SELECT * FROM no_such_table"),
      ).catch((error: unknown) => error);
      expect(refused).toMatchObject({ operation: "bad statement", code: "42P01" });
      expect(await query("read", `SELECT note FROM "${schema}".notes`)).toEqual([{ note: "kept" }]);
    } finally {
      await saver.close();
    }
  });
});
