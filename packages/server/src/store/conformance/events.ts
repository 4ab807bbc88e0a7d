import { expect, it } from "vitest";
import type { ServerStore } from "../server-store.js";
import { pendingRun, type StoreConformanceContext } from "./conformance-context.js";

async function runOf(
  store: ServerStore,
  context: StoreConformanceContext,
  owner: string,
): Promise<string> {
  const threadId = context.id("thread");
  await store.createThread({ threadId, owner, metadata: {} }, { ifExists: "raise" });
  const runId = context.id("run");
  await store.insertRun(pendingRun(owner, threadId, runId));
  return runId;
}

/** Run events: numbering, exact round trips, reading after a position, ownership, trimming. */
export function describeEvents(context: StoreConformanceContext): void {
  it("numbers a run's events from 1 on, across appends, and returns them exactly", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const runId = await runOf(store, context, owner);
    const data = [{ a: [1, 2.5, null, true] }, "text with \u0000 and \u2028", [], null];
    const first = await store.appendEvents(
      runId,
      data.slice(0, 2).map((d) => ({ event: "values", data: d })),
    );
    const second = await store.appendEvents(
      runId,
      data.slice(2).map((d) => ({ event: "updates", data: d })),
    );
    expect([...first, ...second].map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    const read = await store.readEvents(owner, runId, 0, 100);
    expect(read.map((event) => event.data)).toEqual(data);
    expect(read.map((event) => event.event)).toEqual(["values", "values", "updates", "updates"]);
    expect(await store.appendEvents(runId, [])).toEqual([]);
  });

  it("logs events with a run's change, numbered on from its last, in one step", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const runId = await runOf(store, context, owner);
    await store.appendEvents(runId, [{ event: "metadata", data: { run_id: runId } }]);
    const ended = await store.updateRun(
      runId,
      { status: "success" },
      {
        thread: { status: "idle" },
        events: [
          { event: "values", data: { n: 1 } },
          { event: "updates", data: { node: { n: 2 } } },
        ],
      },
    );
    expect(ended?.status).toBe("success");
    const read = await store.readEvents(owner, runId, 0, 100);
    expect(read.map(({ seq, event }) => [seq, event])).toEqual([
      [1, "metadata"],
      [2, "values"],
      [3, "updates"],
    ]);
    expect(read.at(-1)?.data).toEqual({ node: { n: 2 } });
    await store.updateRun(runId, { cancel: null }, { events: [] });
    expect(await store.readEvents(owner, runId, 3, 100)).toEqual([]);
  });

  it("numbers events from two racing clients without a gap or a repeat", async () => {
    const store = await context.store();
    const second = await context.secondClient(store);
    const owner = context.id("owner");
    const runId = await runOf(store, context, owner);
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        (index % 2 === 0 ? store : second).appendEvents(runId, [
          { event: "e", data: index },
          { event: "e", data: index },
        ]),
      ),
    );
    const seqs = (await store.readEvents(owner, runId, 0, 100)).map((event) => event.seq);
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  });

  it("reads the events after a position, at most a limit, for the run's owner only", async () => {
    const store = await context.store();
    const [owner, other] = [context.id("owner"), context.id("other")];
    const runId = await runOf(store, context, owner);
    await store.appendEvents(
      runId,
      Array.from({ length: 5 }, (_, index) => ({ event: "e", data: index })),
    );
    expect((await store.readEvents(owner, runId, 2, 2)).map((event) => event.seq)).toEqual([3, 4]);
    expect(await store.readEvents(owner, runId, 5, 10)).toEqual([]);
    expect(await store.readEvents(other, runId, 0, 10)).toEqual([]);
  });

  it("trims the events of runs that ended before a time, and only those", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const [ended, going] = [await runOf(store, context, owner), await runOf(store, context, owner)];
    await store.appendEvents(ended, [{ event: "e", data: 1 }]);
    await store.appendEvents(going, [{ event: "e", data: 1 }]);
    await store.updateRun(ended, { status: "success" });
    await store.updateRun(going, { status: "running" });
    expect(await store.trimEvents(new Date(Date.now() - 60_000).toISOString())).toBe(0);
    const trimmed = await store.trimEvents(new Date(Date.now() + 60_000).toISOString());
    expect(trimmed).toBeGreaterThanOrEqual(1);
    expect(await store.readEvents(owner, ended, 0, 10)).toEqual([]);
    expect(await store.readEvents(owner, going, 0, 10)).toHaveLength(1);
  });
}
