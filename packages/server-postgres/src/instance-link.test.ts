import type { PostgresSaver } from "@framework/checkpoint-postgres";
import type { RunChangeKind } from "@framework/server";
import { pendingRun } from "@framework/server/conformance";
import { uniqueName } from "@framework/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { PostgresServerStore } from "./postgres-server-store.js";
import { dropSchema, postgresUrl, sql, testSaver } from "./test-postgres.js";

const schema = uniqueName("link");
const opened: { store: PostgresServerStore; saver: PostgresSaver }[] = [];

/** A store with its own pool: what one instance has. */
function instanceStore(): PostgresServerStore {
  const saver = testSaver(schema);
  const store = new PostgresServerStore({ checkpointer: saver });
  opened.push({ store, saver });
  return store;
}

afterEach(async () => {
  for (const { store, saver } of opened.splice(0)) {
    await store.close();
    await saver.close();
  }
});
afterAll(async () => {
  if (postgresUrl !== undefined) await dropSchema(schema);
});

/** What a watcher heard, in order. */
function recorder() {
  const heard: string[] = [];
  return {
    heard,
    watcher: {
      changed: (runId: string, kind: RunChangeKind) => heard.push(`${kind}:${runId}`),
      lost: () => heard.push("lost"),
      resumed: () => heard.push("resumed"),
    },
  };
}

describe.skipIf(postgresUrl === undefined)("PostgresServerStore across instances", () => {
  it("leases a thread to one instance at a time, until it releases it or goes away", async () => {
    const [first, second] = [instanceStore(), instanceStore()];
    expect(await first.leaseThread("t1")).toBe(true);
    expect(await second.leaseThread("t1")).toBe(false);
    expect(await second.leaseThread("t2")).toBe(true);
    await first.releaseThread("t1");
    expect(await second.leaseThread("t1")).toBe(true);
    expect(await first.leaseThread("t1")).toBe(false);
    await second.close();
    expect(await first.leaseThread("t1")).toBe(true);
    expect(await first.leaseThread("t2")).toBe(true);
  });

  it("keeps a thread leased, under one token, while any of its concurrent takings holds it", async () => {
    const [first, second] = [instanceStore(), instanceStore()];
    // Two wake-ups of one thread handled at once by one worker: both take it.
    expect(await Promise.all([first.leaseThread("t"), first.leaseThread("t")])).toEqual([
      true,
      true,
    ]);
    await first.releaseThread("t");
    expect(await first.holdsThread("t")).toBe(true);
    expect(await second.leaseThread("t")).toBe(false);
    await first.releaseThread("t");
    expect(await first.holdsThread("t")).toBe(false);
    expect(await second.leaseThread("t")).toBe(true);
  });

  it("tells every instance's watchers of events logged and runs changed anywhere, once committed", async () => {
    const [writer, reader] = [instanceStore(), instanceStore()];
    const { heard, watcher } = recorder();
    const unwatch = await reader.watchRuns(watcher);
    const owner = "owner";
    await writer.createThread({ threadId: "thread", owner, metadata: {} }, { ifExists: "raise" });
    await writer.insertRun(pendingRun(owner, "thread", "run"));
    await writer.appendEvents("run", [{ event: "values", data: 1 }]);
    await writer.appendEvents("unknown-run", [{ event: "values", data: 1 }]);
    await writer.updateRun("run", { cancel: "interrupt" });
    await writer.deleteThread(owner, "thread");
    await expect.poll(() => heard.length).toBe(3);
    expect(heard).toEqual(["events:run", "run:run", "run:run"]);
    unwatch();
    // A watcher kept throughout tells when each change below has been heard.
    const { heard: all, watcher: sentinel } = recorder();
    await reader.watchRuns(sentinel);
    await writer.createThread({ threadId: "later", owner, metadata: {} }, { ifExists: "raise" });
    await writer.insertRun(pendingRun(owner, "later", "later-run"));
    await writer.updateRun("later-run", { status: "running" });
    await expect.poll(() => all).toEqual(["run:later-run"]);
    const { heard: still, watcher: other } = recorder();
    await reader.watchRuns(other);
    await writer.updateRun("later-run", { status: "success" });
    await expect.poll(() => all).toEqual(["run:later-run", "run:later-run"]);
    expect(still).toEqual(["run:later-run"]);
    expect(heard).toHaveLength(3);
  });

  it("reports a cut connection as lost (its leases gone), connects again and hears on", async () => {
    const [writer, reader] = [instanceStore(), instanceStore()];
    const { heard, watcher } = recorder();
    await reader.watchRuns(watcher);
    expect(await reader.leaseThread("held")).toBe(true);
    // The session holding the lease is the reader's one connection: cut it.
    const cut = await sql(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
       WHERE locktype = 'advisory' AND objsubid = 1
         AND (classid::bigint << 32 | objid::bigint) = hashtextextended($1, 0)`,
      [`@framework/server-postgres:${schema}:lease:held`],
    );
    expect(cut.rowCount).toBe(1);
    await expect.poll(() => heard).toEqual(["lost", "resumed"]);
    expect(await writer.leaseThread("held")).toBe(true);
    expect(await reader.leaseThread("held")).toBe(false);
    await writer.createThread(
      { threadId: "after", owner: "o", metadata: {} },
      { ifExists: "raise" },
    );
    await writer.insertRun(pendingRun("o", "after", "after-run"));
    await writer.updateRun("after-run", { status: "running" });
    await expect.poll(() => heard).toEqual(["lost", "resumed", "run:after-run"]);
  });
});
