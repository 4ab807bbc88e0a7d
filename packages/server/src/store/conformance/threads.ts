import { expect, it } from "vitest";
import { pendingRun, type StoreConformanceContext } from "./conformance-context.js";

/** Threads: creation, ownership, search, metadata, status, head and deletion. */
export function describeThreads(context: StoreConformanceContext): void {
  it("creates a thread once: a second create is taken, or returns its owner's own with do_nothing", async () => {
    const store = await context.store();
    const [owner, other, threadId] = [
      context.id("owner"),
      context.id("other"),
      context.id("thread"),
    ];
    const created = await store.createThread(
      { threadId, owner, metadata: { a: 1 } },
      { ifExists: "raise" },
    );
    expect(created).toMatchObject({
      threadId,
      owner,
      metadata: { a: 1 },
      status: "idle",
      assistantId: null,
      head: null,
    });
    expect(await store.createThread({ threadId, owner, metadata: {} }, { ifExists: "raise" })).toBe(
      "taken",
    );
    expect(
      await store.createThread({ threadId, owner, metadata: {} }, { ifExists: "do_nothing" }),
    ).toEqual(created);
    expect(
      await store.createThread(
        { threadId, owner: other, metadata: {} },
        { ifExists: "do_nothing" },
      ),
    ).toBe("taken");
  });

  it("finds a thread only for its owner", async () => {
    const store = await context.store();
    const [owner, other, threadId] = [
      context.id("owner"),
      context.id("other"),
      context.id("thread"),
    ];
    await store.createThread({ threadId, owner, metadata: {} }, { ifExists: "raise" });
    expect((await store.getThread(owner, threadId))?.threadId).toBe(threadId);
    expect(await store.getThread(other, threadId)).toBeUndefined();
    expect(await store.getThread(owner, context.id("missing"))).toBeUndefined();
  });

  it("searches one owner's threads by metadata, status and ids, sorted and paged", async () => {
    const store = await context.store();
    const [owner, other] = [context.id("owner"), context.id("other")];
    const ids = [context.id("t0"), context.id("t1"), context.id("t2")];
    for (const [index, threadId] of ids.entries()) {
      await store.createThread(
        { threadId, owner, metadata: { index, even: index % 2 === 0, tags: { kind: "a" } } },
        { ifExists: "raise" },
      );
    }
    await store.createThread(
      { threadId: context.id("foreign"), owner: other, metadata: { even: true } },
      { ifExists: "raise" },
    );
    await store.setThreadStatus(ids[1]!, "busy");
    const search = { limit: 10, offset: 0, sortBy: "created_at", sortOrder: "asc" } as const;
    expect((await store.searchThreads(owner, search)).map((t) => t.threadId)).toEqual(ids);
    expect(
      (await store.searchThreads(owner, { ...search, sortOrder: "desc" })).map((t) => t.threadId),
    ).toEqual([...ids].reverse());
    expect(
      (await store.searchThreads(owner, { ...search, metadata: { even: true } })).map(
        (t) => t.threadId,
      ),
    ).toEqual([ids[0], ids[2]]);
    expect(
      (await store.searchThreads(owner, { ...search, metadata: { tags: { kind: "a" } } })).length,
    ).toBe(3);
    expect((await store.searchThreads(owner, { ...search, metadata: { index: "0" } })).length).toBe(
      0,
    );
    expect(
      (await store.searchThreads(owner, { ...search, status: "busy" })).map((t) => t.threadId),
    ).toEqual([ids[1]]);
    expect(
      (await store.searchThreads(owner, { ...search, ids: [ids[2]!, context.id("none")] })).map(
        (t) => t.threadId,
      ),
    ).toEqual([ids[2]]);
    expect(
      (await store.searchThreads(owner, { ...search, limit: 1, offset: 1 })).map((t) => t.threadId),
    ).toEqual([ids[1]]);
    expect((await store.searchThreads(other, search)).length).toBe(1);
  });

  it("merges metadata, records status, assistant and head, for the owner only", async () => {
    const store = await context.store();
    const [owner, other, threadId] = [
      context.id("owner"),
      context.id("other"),
      context.id("thread"),
    ];
    await store.createThread({ threadId, owner, metadata: { a: 1, b: 2 } }, { ifExists: "raise" });
    expect(await store.patchThread(other, threadId, { metadata: { a: 9 } })).toBeUndefined();
    expect(
      (await store.patchThread(owner, threadId, { metadata: { b: 3, c: 4 } }))?.metadata,
    ).toEqual({ a: 1, b: 3, c: 4 });
    await store.setThreadStatus(threadId, "interrupted", "assistant-1");
    await store.setThreadStatus(threadId, "idle");
    await store.setThreadHead(threadId, "checkpoint-7");
    expect(await store.getThread(owner, threadId)).toMatchObject({
      status: "idle",
      assistantId: "assistant-1",
      head: "checkpoint-7",
    });
    await store.setThreadHead(threadId, null);
    expect((await store.getThread(owner, threadId))?.head).toBeNull();
  });

  it("leaves temporary threads out of searches and hands them out once unchanged for long enough", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    const [kept, temporary] = [context.id("kept"), context.id("temporary")];
    await store.createThread({ threadId: kept, owner, metadata: {} }, { ifExists: "raise" });
    const created = await store.createThread(
      { threadId: temporary, owner, metadata: {}, temporary: true },
      { ifExists: "raise" },
    );
    expect(created).toMatchObject({ temporary: true });
    const search = { limit: 10, offset: 0, sortBy: "created_at", sortOrder: "asc" } as const;
    expect((await store.searchThreads(owner, search)).map((t) => t.threadId)).toEqual([kept]);
    expect((await store.getThread(owner, temporary))?.temporary).toBe(true);
    const later = new Date(Date.now() + 60_000).toISOString();
    const earlier = new Date(Date.now() - 60_000).toISOString();
    expect(await store.expiredTemporaryThreads(earlier)).not.toContainEqual({
      threadId: temporary,
      owner,
    });
    expect(await store.expiredTemporaryThreads(later)).toContainEqual({
      threadId: temporary,
      owner,
    });
    expect(await store.expiredTemporaryThreads(later)).not.toContainEqual(
      expect.objectContaining({ threadId: kept }),
    );
    await store.setThreadStatus(temporary, "busy");
    expect(await store.expiredTemporaryThreads(later)).not.toContainEqual({
      threadId: temporary,
      owner,
    });
  });

  it("deletes a thread with its runs and their events, for the owner only", async () => {
    const store = await context.store();
    const [owner, other, threadId, runId] = [
      context.id("owner"),
      context.id("other"),
      context.id("thread"),
      context.id("run"),
    ];
    await store.createThread({ threadId, owner, metadata: {} }, { ifExists: "raise" });
    await store.insertRun(pendingRun(owner, threadId, runId));
    await store.appendEvents(runId, [{ event: "values", data: {} }]);
    expect(await store.deleteThread(other, threadId)).toBe(false);
    expect(await store.deleteThread(owner, threadId)).toBe(true);
    expect(await store.getThread(owner, threadId)).toBeUndefined();
    expect(await store.getRun(owner, runId)).toBeUndefined();
    expect(await store.readEvents(owner, runId, 0, 10)).toEqual([]);
    expect(await store.deleteThread(owner, threadId)).toBe(false);
  });
}
