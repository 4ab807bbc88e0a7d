import { expect, it } from "vitest";
import type { ServerStore } from "../server-store.js";
import { pendingRun, type StoreConformanceContext } from "./conformance-context.js";

async function threadOf(
  store: ServerStore,
  context: StoreConformanceContext,
  owner: string,
): Promise<string> {
  const threadId = context.id("thread");
  await store.createThread({ threadId, owner, metadata: {} }, { ifExists: "raise" });
  return threadId;
}

/** Runs: atomic insertion under the multitask rule, ownership, listing, updates, recovery. */
export function describeRuns(context: StoreConformanceContext): void {
  it("keeps a run exactly as inserted, JSON round trip included", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const threadId = await threadOf(store, context, owner);
    const run = pendingRun(owner, threadId, context.id("run"), {
      request: {
        ...pendingRun(owner, threadId, "x").request,
        resume: { answer: [1, "two", null] },
        checkpointId: "cp",
      },
    });
    const { run: inserted, inflight } = await store.insertRun(run);
    expect(inflight).toEqual([]);
    expect(inserted).toMatchObject(run);
    expect(await store.getRun(owner, run.runId)).toEqual(inserted);
  });

  it("refuses a reject run on a thread with a pending or running run, and reports what is inflight", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const threadId = await threadOf(store, context, owner);
    const first = pendingRun(owner, threadId, context.id("first"));
    await store.insertRun(first);
    const refused = await store.insertRun(pendingRun(owner, threadId, context.id("second")));
    expect(refused.run).toBeUndefined();
    expect(refused.inflight.map((run) => run.runId)).toEqual([first.runId]);
    const queued = await store.insertRun(
      pendingRun(owner, threadId, context.id("third"), { multitaskStrategy: "enqueue" }),
    );
    expect(queued.run?.runId).toBeDefined();
    expect(queued.inflight.map((run) => run.runId)).toEqual([first.runId]);
    await store.updateRun(first.runId, { status: "success" });
    await store.updateRun(queued.run!.runId, { status: "success" });
    expect(
      (await store.insertRun(pendingRun(owner, threadId, context.id("fourth")))).run,
    ).toBeDefined();
  });

  it("inserts a run started when its thread is free, and as given behind inflight runs", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const threadId = await threadOf(store, context, owner);
    const first = pendingRun(owner, threadId, context.id("first"), { assistantId: "started" });
    const started = await store.insertRun(first, undefined, { checkpointBefore: "cp-1" });
    expect(started.run).toMatchObject({ status: "running", checkpointBefore: "cp-1", attempt: 1 });
    expect(await store.getRun(owner, first.runId)).toEqual(started.run);
    expect(await store.getThread(owner, threadId)).toMatchObject({
      status: "busy",
      assistantId: "started",
    });
    expect(await store.nextPendingRun(threadId)).toBeUndefined();
    const queued = await store.insertRun(
      pendingRun(owner, threadId, context.id("second"), {
        assistantId: "queued",
        multitaskStrategy: "enqueue",
      }),
      undefined,
      { checkpointBefore: "cp-2" },
    );
    expect(queued.run).toMatchObject({ status: "pending", checkpointBefore: null });
    expect(queued.inflight.map((run) => run.runId)).toEqual([first.runId]);
    expect((await store.getThread(owner, threadId))?.assistantId).toBe("started");
    expect((await store.nextPendingRun(threadId))?.runId).toBe(queued.run?.runId);
  });

  it("lets one of two racing reject runs in, whichever client inserts", async () => {
    const store = await context.store();
    const second = await context.secondClient(store);
    const owner = context.id("owner");
    const threadId = await threadOf(store, context, owner);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        (index % 2 === 0 ? store : second).insertRun(
          pendingRun(owner, threadId, context.id(`race${index}`)),
        ),
      ),
    );
    expect(results.filter((result) => result.run !== undefined)).toHaveLength(1);
  });

  it("finds a run only for its owner, and only in its thread when one is named", async () => {
    const store = await context.store();
    const [owner, other] = [context.id("owner"), context.id("other")];
    const threadId = await threadOf(store, context, owner);
    const runId = context.id("run");
    await store.insertRun(pendingRun(owner, threadId, runId));
    expect((await store.getRun(owner, runId, threadId))?.runId).toBe(runId);
    expect(await store.getRun(owner, runId, context.id("elsewhere"))).toBeUndefined();
    expect(await store.getRun(other, runId)).toBeUndefined();
    expect(await store.listRuns(other, threadId, { limit: 10, offset: 0 })).toEqual([]);
  });

  it("lists a thread's runs newest first, paged and by status", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const threadId = await threadOf(store, context, owner);
    const ids = [context.id("r0"), context.id("r1"), context.id("r2")];
    for (const runId of ids) {
      await store.insertRun(pendingRun(owner, threadId, runId, { multitaskStrategy: "enqueue" }));
    }
    await store.updateRun(ids[0]!, { status: "success" });
    const list = (options: Parameters<ServerStore["listRuns"]>[2]) =>
      store.listRuns(owner, threadId, options).then((runs) => runs.map((run) => run.runId));
    expect(await list({ limit: 10, offset: 0 })).toEqual([...ids].reverse());
    expect(await list({ limit: 1, offset: 1 })).toEqual([ids[1]]);
    expect(await list({ limit: 10, offset: 0, status: "success" })).toEqual([ids[0]]);
  });

  it("updates status, error, attempt, cancel and checkpointBefore, and deletes a run with its events", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const threadId = await threadOf(store, context, owner);
    const runId = context.id("run");
    await store.insertRun(pendingRun(owner, threadId, runId));
    expect(
      await store.updateRun(runId, { status: "running", checkpointBefore: "checkpoint-7" }),
    ).toMatchObject({ status: "running", checkpointBefore: "checkpoint-7" });
    const updated = await store.updateRun(runId, {
      status: "error",
      error: { type: "NodeExecutionError", message: "boom" },
      attempt: 2,
      cancel: "rollback",
    });
    expect(updated).toMatchObject({
      status: "error",
      error: { type: "NodeExecutionError", message: "boom" },
      attempt: 2,
      cancel: "rollback",
      checkpointBefore: "checkpoint-7",
    });
    expect(await store.getRun(owner, runId)).toEqual(updated);
    expect(await store.updateRun(context.id("missing"), { status: "success" })).toBeUndefined();
    await store.appendEvents(runId, [{ event: "values", data: 1 }]);
    await store.deleteRun(runId);
    expect(await store.getRun(owner, runId)).toBeUndefined();
    expect(await store.readEvents(owner, runId, 0, 10)).toEqual([]);
  });

  it("changes a run and its thread's status in one step", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const threadId = await threadOf(store, context, owner);
    const runId = context.id("run");
    await store.insertRun(pendingRun(owner, threadId, runId));
    await store.updateRun(
      runId,
      { status: "running" },
      { thread: { status: "busy", assistantId: "assistant-2" } },
    );
    expect((await store.getRun(owner, runId))?.status).toBe("running");
    expect(await store.getThread(owner, threadId)).toMatchObject({
      status: "busy",
      assistantId: "assistant-2",
    });
    await store.updateRun(runId, { status: "success" }, { thread: { status: "idle" } });
    expect(await store.getThread(owner, threadId)).toMatchObject({
      status: "idle",
      assistantId: "assistant-2",
    });
  });

  it("hands out a thread's pending runs oldest first, and every unfinished run for recovery", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const threadId = await threadOf(store, context, owner);
    const [a, b, c] = [context.id("a"), context.id("b"), context.id("c")];
    for (const runId of [a, b, c]) {
      await store.insertRun(pendingRun(owner, threadId, runId, { multitaskStrategy: "enqueue" }));
    }
    expect((await store.nextPendingRun(threadId))?.runId).toBe(a);
    await store.updateRun(a, { status: "running" });
    expect((await store.nextPendingRun(threadId))?.runId).toBe(b);
    await store.updateRun(b, { status: "interrupted" });
    const unfinished = (await store.unfinishedRuns()).map((run) => run.runId);
    expect(unfinished).toEqual(expect.arrayContaining([a, c]));
    expect(unfinished).not.toContain(b);
    expect(unfinished.indexOf(a)).toBeLessThan(unfinished.indexOf(c));
    const elsewhere = await threadOf(store, context, owner);
    await store.insertRun(pendingRun(owner, elsewhere, context.id("elsewhere")));
    expect((await store.unfinishedRuns(threadId)).map((run) => run.runId)).toEqual([a, c]);
  });

  it("counts pending and running runs per owner and in all, as every client sees them", async () => {
    const store = await context.store();
    const second = await context.secondClient(store);
    const [owner, other] = [context.id("owner"), context.id("other")];
    expect(await store.countRuns(owner)).toEqual({ pending: 0, running: 0 });
    const before = await store.countRuns();
    const threadId = await threadOf(store, context, owner);
    const otherThread = await threadOf(store, context, other);
    const [a, b, c, d] = [context.id("a"), context.id("b"), context.id("c"), context.id("d")];
    for (const runId of [a, b, c]) {
      await store.insertRun(pendingRun(owner, threadId, runId, { multitaskStrategy: "enqueue" }));
    }
    await store.insertRun(pendingRun(other, otherThread, d));
    await store.updateRun(a, { status: "running" });
    await store.updateRun(b, { status: "success" });
    expect(await second.countRuns(owner)).toEqual({ pending: 1, running: 1 });
    expect(await second.countRuns(other)).toEqual({ pending: 1, running: 0 });
    expect(await second.countRuns()).toEqual({
      pending: before.pending + 2,
      running: before.running + 1,
    });
    await store.updateRun(a, { status: "interrupted" });
    await store.deleteRun(c);
    expect(await second.countRuns(owner)).toEqual({ pending: 0, running: 0 });
  });

  it("holds an owner's run limits in the insertion itself, whichever clients race", async () => {
    const store = await context.store();
    const second = await context.secondClient(store);
    const [owner, other] = [context.id("owner"), context.id("other")];
    const threads = await Promise.all(
      Array.from({ length: 8 }, () => threadOf(store, context, owner)),
    );
    const results = await Promise.all(
      threads.map((threadId, index) =>
        (index % 2 === 0 ? store : second).insertRun(
          pendingRun(owner, threadId, context.id(`race${index}`)),
          { maxPending: 3 },
        ),
      ),
    );
    const inserted = results.flatMap((result) => (result.run ? [result.run] : []));
    expect(inserted).toHaveLength(3);
    for (const refused of results.filter((result) => !result.run)) {
      expect(refused.overLimit).toEqual({ limit: "pending", current: 3 });
    }
    expect(await store.countRuns(owner)).toEqual({ pending: 3, running: 0 });
    await store.updateRun(inserted[0]!.runId, { status: "running" });
    const overActive = await second.insertRun(
      pendingRun(owner, threads[7]!, context.id("active")),
      { maxActive: 3, maxPending: 10 },
    );
    expect(overActive).toMatchObject({
      run: undefined,
      overLimit: { limit: "active", current: 3 },
    });
    expect(
      (
        await store.insertRun(pendingRun(owner, threads[7]!, context.id("within")), {
          maxActive: 4,
        })
      ).run,
    ).toBeDefined();
    const otherThread = await threadOf(store, context, other);
    const others = await store.insertRun(pendingRun(other, otherThread, context.id("other")), {
      maxActive: 1,
      maxPending: 1,
    });
    expect(others.run).toBeDefined();
    expect(others.overLimit).toBeUndefined();
  });
}
