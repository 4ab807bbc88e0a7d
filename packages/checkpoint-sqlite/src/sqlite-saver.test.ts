import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigurationError } from "@framework/core";
import { CheckpointConflictError, type Checkpointer } from "@framework/graph";
import { checkpointAt, runCheckpointerConformance } from "@framework/graph/conformance";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteBusyError } from "./error/sqlite-busy-error.js";
import { SqliteSaverError } from "./error/sqlite-saver-error.js";
import { SqliteSchemaVersionError } from "./error/sqlite-schema-version-error.js";
import { schemaVersion } from "./internal/sqlite-schema.js";
import { SqliteSaver } from "./sqlite-saver.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "framework-sqlite-saver-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
const closeSaver = (saver: Checkpointer) => (saver as SqliteSaver).close();
runCheckpointerConformance({
  name: "SqliteSaver (file)",
  createCheckpointer: () => new SqliteSaver({ path: join(dir, `conformance-${files++}.sqlite`) }),
  // Another connection to the same file, as a second process would open.
  createSecondClient: (first) => new SqliteSaver({ path: first.path }),
  destroyCheckpointer: closeSaver,
});
runCheckpointerConformance({
  name: "SqliteSaver (:memory:)",
  createCheckpointer: () => new SqliteSaver({ path: ":memory:" }),
  destroyCheckpointer: closeSaver,
});

async function seqsOf(saver: SqliteSaver, threadId: string): Promise<number[]> {
  const seqs: number[] = [];
  for await (const checkpoint of saver.list(threadId)) seqs.push(checkpoint.seq);
  return seqs;
}

describe("SqliteSaver", () => {
  it("keeps checkpoints in the file across connections, creating its directory", async () => {
    const path = join(dir, "nested", "deeper", "checkpoints.sqlite");
    const writer = new SqliteSaver({ path });
    await writer.put(checkpointAt("t", 0, { nul: "a\u0000b" }));
    await writer.put(checkpointAt("t", 1));
    writer.close();
    const reader = new SqliteSaver({ path });
    expect(await seqsOf(reader, "t")).toEqual([1, 0]);
    expect((await reader.list("t", { beforeSeq: 1 })[Symbol.asyncIterator]().next()).value).toEqual(
      checkpointAt("t", 0, { nul: "a\u0000b" }),
    );
    reader.close();
  });

  it("finds a checkpoint by its id", async () => {
    const saver = new SqliteSaver({ path: ":memory:" });
    await saver.put(checkpointAt("t", 0));
    await saver.put(checkpointAt("t", 1, { second: true }));
    expect(await saver.get("t", "t-1")).toEqual(checkpointAt("t", 1, { second: true }));
    expect(await saver.get("t", "t-9")).toBeUndefined();
    expect(await saver.get("other", "t-1")).toBeUndefined();
    saver.close();
  });

  it("accepts only the thread's next seq: 0 first, then one more than the newest", async () => {
    const saver = new SqliteSaver({ path: ":memory:" });
    await expect(saver.put(checkpointAt("t", 1))).rejects.toMatchObject({
      name: "CheckpointConflictError",
      seq: 1,
      latestSeq: -1,
    });
    await saver.put(checkpointAt("t", 0));
    const gap = saver.put(checkpointAt("t", 2));
    await expect(gap).rejects.toSatisfy(CheckpointConflictError.isInstance);
    await expect(gap).rejects.toMatchObject({ seq: 2, latestSeq: 0 });
    expect(await seqsOf(saver, "t")).toEqual([0]);
    saver.close();
  });

  it("pages through a history longer than one read", async () => {
    const saver = new SqliteSaver({ path: ":memory:" });
    for (let seq = 0; seq < 150; seq++) await saver.put(checkpointAt("t", seq));
    const all = await seqsOf(saver, "t");
    expect(all).toEqual(Array.from({ length: 150 }, (_, index) => 149 - index));
    const limited: number[] = [];
    for await (const checkpoint of saver.list("t", { beforeSeq: 140, limit: 70 })) {
      limited.push(checkpoint.seq);
    }
    expect(limited).toEqual(Array.from({ length: 70 }, (_, index) => 139 - index));
    saver.close();
  });

  it("lets the database be written while a list is being read", async () => {
    const saver = new SqliteSaver({ path: ":memory:" });
    for (let seq = 0; seq < 100; seq++) await saver.put(checkpointAt("t", seq));
    let read = 0;
    for await (const _ of saver.list("t")) {
      if (read++ === 0) await saver.put(checkpointAt("u", 0));
    }
    expect(read).toBe(100);
    expect(await saver.getLatest("u")).toBeDefined();
    saver.close();
  });

  it("records its schema version and migrates a new file once", () => {
    const path = join(dir, "versioned.sqlite");
    new SqliteSaver({ path }).close();
    new SqliteSaver({ path }).close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT version FROM schema_migrations").all()).toEqual([
      { version: schemaVersion },
    ]);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("refuses a file from a newer schema and leaves it untouched", () => {
    const path = join(dir, "future.sqlite");
    new SqliteSaver({ path }).close();
    const db = new Database(path);
    db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(99, "x");
    db.close();
    const before = readFileSync(path);
    expect(() => new SqliteSaver({ path })).toThrow(
      expect.toSatisfy(
        (error: unknown) =>
          SqliteSchemaVersionError.isInstance(error) &&
          error.found === 99 &&
          error.supported === schemaVersion,
      ),
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("refuses a file that is not a database, without changing it", () => {
    const path = join(dir, "notes.txt");
    writeFileSync(path, "these are not checkpoints\n".repeat(100));
    let caught: unknown;
    try {
      new SqliteSaver({ path });
    } catch (error) {
      caught = error;
    }
    expect(SqliteSaverError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ operation: "open", code: "SQLITE_NOTADB", path });
    expect(readFileSync(path, "utf8")).toBe("these are not checkpoints\n".repeat(100));
  });

  it("fails with SqliteBusyError when another connection holds the write lock too long", async () => {
    const path = join(dir, "busy.sqlite");
    const saver = new SqliteSaver({ path, busyTimeoutMs: 20 });
    await saver.put(checkpointAt("t", 0));
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    const blocked = saver.put(checkpointAt("t", 1));
    await expect(blocked).rejects.toSatisfy(SqliteBusyError.isInstance);
    await expect(blocked).rejects.toMatchObject({ operation: "put", timeoutMs: 20, path });
    // Readers are not blocked by a writer in WAL mode.
    expect((await saver.getLatest("t"))?.seq).toBe(0);
    other.exec("COMMIT");
    other.close();
    await saver.put(checkpointAt("t", 1));
    expect(await seqsOf(saver, "t")).toEqual([1, 0]);
    saver.close();
  });

  it("refuses use after close with a typed error", async () => {
    const saver = new SqliteSaver({ path: ":memory:" });
    saver.close();
    saver.close();
    await expect(saver.getLatest("t")).rejects.toSatisfy(SqliteSaverError.isInstance);
  });

  it("reports a directory it cannot create as a SqliteSaverError", () => {
    const blocker = join(dir, "file");
    writeFileSync(blocker, "");
    expect(() => new SqliteSaver({ path: join(blocker, "checkpoints.sqlite") })).toThrow(
      expect.toSatisfy(SqliteSaverError.isInstance),
    );
  });

  it("rejects bad options with ConfigurationError", () => {
    expect(() => new SqliteSaver({ path: " " })).toThrow(
      expect.toSatisfy(ConfigurationError.isInstance),
    );
    expect(() => new SqliteSaver({ path: ":memory:", busyTimeoutMs: -1 })).toThrow(
      expect.toSatisfy(
        (error: unknown) =>
          ConfigurationError.isInstance(error) && error.setting === "busyTimeoutMs",
      ),
    );
  });
});
