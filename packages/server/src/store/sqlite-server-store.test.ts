import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSaver } from "@framework/checkpoint-sqlite";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { ServerSchemaVersionError } from "../error/server-schema-version-error.js";
import { runServerStoreConformance } from "./conformance/index.js";
import { SqliteServerStore } from "./sqlite-server-store.js";

const directory = mkdtempSync(join(tmpdir(), "framework-server-store-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

runServerStoreConformance({
  name: "SqliteServerStore (one file, two connections)",
  createStore: () => new SqliteServerStore({ path: join(directory, "store.sqlite") }),
  createSecondClient: () => new SqliteServerStore({ path: join(directory, "store.sqlite") }),
});

runServerStoreConformance({
  name: "SqliteServerStore (in memory)",
  createStore: () => new SqliteServerStore({ path: ":memory:" }),
});

describe("SqliteServerStore's schema", () => {
  it("refuses a file written by a newer version, leaving it untouched", async () => {
    const path = join(directory, "newer.sqlite");
    await new SqliteServerStore({ path }).close();
    const db = new Database(path);
    db.prepare(
      "INSERT INTO server_schema_migrations (version, applied_at) VALUES (99, 'later')",
    ).run();
    db.close();
    expect(() => new SqliteServerStore({ path })).toThrow(ServerSchemaVersionError);
    const check = new Database(path);
    expect(check.prepare("SELECT max(version) AS v FROM server_schema_migrations").get()).toEqual({
      v: 99,
    });
    check.close();
  });

  it("shares one file with the checkpoints of SqliteSaver", async () => {
    const path = join(directory, "shared.sqlite");
    const saver = new SqliteSaver({ path });
    const store = new SqliteServerStore({ path });
    await store.createThread({ threadId: "t", owner: "o", metadata: {} }, { ifExists: "raise" });
    expect(await saver.getLatest("t")).toBeUndefined();
    saver.close();
    await store.close();
  });
});
