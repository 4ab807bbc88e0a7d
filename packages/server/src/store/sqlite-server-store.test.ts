import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
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
