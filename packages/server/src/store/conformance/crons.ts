import { expect, it } from "vitest";
import type { CronRecord, ServerStore } from "../server-store.js";
import type { StoreConformanceContext } from "./conformance-context.js";

/** A cron of `owner`, ready for `createCron`. */
function newCron(
  owner: string,
  cronId: string,
  overrides: Partial<Omit<CronRecord, "createdAt" | "updatedAt">> = {},
): Omit<CronRecord, "createdAt" | "updatedAt"> {
  return {
    cronId,
    owner,
    assistantId: "assistant",
    threadId: null,
    schedule: "*/5 * * * *",
    timezone: "Europe/Paris",
    endTime: null,
    enabled: true,
    nextRunDate: "2030-01-01T00:05:00.000Z",
    onRunCompleted: "delete",
    run: {
      input: { messages: [{ role: "user", content: "hi \u0000 there" }] },
      config: { configurable: { tag: "x" } },
      multitaskStrategy: "enqueue",
      streamMode: ["values", "updates"],
      webhook: "https://example.com/hook",
    },
    metadata: { source: "conformance" },
    ...overrides,
  };
}

const ids = (crons: readonly CronRecord[]) => crons.map((cron) => cron.cronId);

/** Crons: ownership, search and count, changes, the upcoming list and claiming a tick once. */
export function describeCrons(context: StoreConformanceContext): void {
  it("keeps a cron exactly as created, for its owner only", async () => {
    const store = await context.store();
    const [owner, other] = [context.id("owner"), context.id("other")];
    const cron = newCron(owner, context.id("cron"), { endTime: "2031-06-01T12:00:00.000Z" });
    const created = await store.createCron(cron);
    expect(created).toMatchObject(cron);
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    expect(await store.getCron(owner, cron.cronId)).toEqual(created);
    expect(await store.getCron(other, cron.cronId)).toBeUndefined();
    expect(await store.getCron(owner, context.id("missing"))).toBeUndefined();
  });

  it("searches and counts one owner's crons by assistant, thread, enabled and metadata, sorted and paged", async () => {
    const store = await context.store();
    const [owner, other, threadId] = [
      context.id("owner"),
      context.id("other"),
      context.id("thread"),
    ];
    const made = [
      newCron(owner, context.id("c0"), { metadata: { team: "a", n: 1 } }),
      newCron(owner, context.id("c1"), {
        threadId,
        assistantId: "other-assistant",
        nextRunDate: null,
      }),
      newCron(owner, context.id("c2"), {
        enabled: false,
        metadata: { team: "a", n: true },
        nextRunDate: "2030-01-01T00:00:00.000Z",
      }),
    ];
    for (const cron of made) await store.createCron(cron);
    await store.createCron(newCron(other, context.id("foreign"), { metadata: { team: "a" } }));
    const search = { limit: 10, offset: 0, sortBy: "created_at", sortOrder: "asc" } as const;
    const all = made.map((cron) => cron.cronId);
    expect(ids(await store.searchCrons(owner, search))).toEqual(all);
    expect(ids(await store.searchCrons(owner, { ...search, sortOrder: "desc" }))).toEqual(
      [...all].reverse(),
    );
    // A cron with no tick left sorts last either way.
    expect(ids(await store.searchCrons(owner, { ...search, sortBy: "next_run_date" }))).toEqual([
      all[2],
      all[0],
      all[1],
    ]);
    expect(
      ids(
        await store.searchCrons(owner, { ...search, sortBy: "next_run_date", sortOrder: "desc" }),
      ),
    ).toEqual([all[0], all[2], all[1]]);
    expect(ids(await store.searchCrons(owner, { ...search, limit: 1, offset: 1 }))).toEqual([
      all[1],
    ]);
    expect(ids(await store.searchCrons(owner, { ...search, threadId }))).toEqual([all[1]]);
    expect(ids(await store.searchCrons(owner, { ...search, assistantId: "assistant" }))).toEqual([
      all[0],
      all[2],
    ]);
    expect(ids(await store.searchCrons(owner, { ...search, enabled: false }))).toEqual([all[2]]);
    expect(ids(await store.searchCrons(owner, { ...search, metadata: { team: "a" } }))).toEqual([
      all[0],
      all[2],
    ]);
    expect(ids(await store.searchCrons(owner, { ...search, metadata: { n: 1 } }))).toEqual([
      all[0],
    ]);
    expect(await store.countCrons(owner, {})).toBe(3);
    expect(await store.countCrons(owner, { metadata: { team: "a" } })).toBe(2);
    expect(await store.countCrons(owner, { threadId, assistantId: "other-assistant" })).toBe(1);
    expect(await store.countCrons(other, {})).toBe(1);
  });

  it("changes only the fields a patch names, for the owner only, and deletes a cron", async () => {
    const store = await context.store();
    const [owner, other] = [context.id("owner"), context.id("other")];
    const cron = newCron(owner, context.id("cron"), { endTime: "2031-01-01T00:00:00.000Z" });
    const created = await store.createCron(cron);
    expect(await store.updateCron(other, cron.cronId, { enabled: false })).toBeUndefined();
    const run = { ...cron.run, input: null, webhook: null };
    const updated = await store.updateCron(owner, cron.cronId, {
      schedule: "0 9 * * 1-5",
      timezone: null,
      endTime: null,
      enabled: false,
      nextRunDate: null,
      onRunCompleted: "keep",
      run,
      metadata: { replaced: true },
    });
    expect(updated).toMatchObject({
      ...cron,
      schedule: "0 9 * * 1-5",
      timezone: null,
      endTime: null,
      enabled: false,
      nextRunDate: null,
      onRunCompleted: "keep",
      run,
      metadata: { replaced: true },
      createdAt: created.createdAt,
    });
    const untouched = await store.updateCron(owner, cron.cronId, { enabled: true });
    expect(untouched).toEqual({ ...updated, enabled: true, updatedAt: untouched!.updatedAt });
    expect(await store.deleteCron(other, cron.cronId)).toBe(false);
    expect(await store.deleteCron(owner, cron.cronId)).toBe(true);
    expect(await store.getCron(owner, cron.cronId)).toBeUndefined();
    expect(await store.deleteCron(owner, cron.cronId)).toBe(false);
  });

  it("lists enabled crons with a next tick, soonest first, and claims each tick once", async () => {
    const store = await context.store();
    const owner = context.id("owner");
    // Earlier than any other test's, so these lead the upcoming list of a shared database.
    const [soon, later] = ["1970-01-01T00:00:01.000Z", "1970-01-01T00:00:02.000Z"];
    const [first, second, disabled, ended] = [
      newCron(owner, context.id("first"), { nextRunDate: later }),
      newCron(owner, context.id("second"), { nextRunDate: soon }),
      newCron(owner, context.id("disabled"), { nextRunDate: soon, enabled: false }),
      newCron(owner, context.id("ended"), { nextRunDate: null }),
    ];
    for (const cron of [first, second, disabled, ended]) await store.createCron(cron);
    const upcoming = ids(await store.upcomingCrons(1000));
    expect(upcoming).toEqual(expect.arrayContaining([first.cronId, second.cronId]));
    expect(upcoming).not.toContain(disabled.cronId);
    expect(upcoming).not.toContain(ended.cronId);
    expect(upcoming.indexOf(second.cronId)).toBeLessThan(upcoming.indexOf(first.cronId));

    const next = "1970-01-01T00:00:03.000Z";
    expect(await store.claimCronTick(second.cronId, later, next)).toBeUndefined();
    expect(await store.claimCronTick(disabled.cronId, soon, next)).toBeUndefined();
    const claimed = await store.claimCronTick(second.cronId, soon, next);
    expect(claimed).toMatchObject({ ...second, nextRunDate: next });
    expect(await store.claimCronTick(second.cronId, soon, next)).toBeUndefined();
    expect((await store.claimCronTick(first.cronId, later, null))?.nextRunDate).toBeNull();
    expect(ids(await store.upcomingCrons(1000))).not.toContain(first.cronId);
  });

  it("gives one tick to exactly one of racing clients", async () => {
    const store = await context.store();
    const second = await context.secondClient(store);
    const cron = newCron(context.id("owner"), context.id("cron"), {
      nextRunDate: "2029-01-01T00:00:00.000Z",
    });
    await store.createCron(cron);
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        (index % 2 === 0 ? store : second).claimCronTick(
          cron.cronId,
          "2029-01-01T00:00:00.000Z",
          "2029-01-01T00:05:00.000Z",
        ),
      ),
    );
    expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
  });

  it("deletes a thread's crons with the thread", async () => {
    const store: ServerStore = await context.store();
    const [owner, threadId] = [context.id("owner"), context.id("thread")];
    await store.createThread({ threadId, owner, metadata: {} }, { ifExists: "raise" });
    const [onThread, elsewhere] = [
      newCron(owner, context.id("on-thread"), { threadId }),
      newCron(owner, context.id("elsewhere")),
    ];
    await store.createCron(onThread);
    await store.createCron(elsewhere);
    await store.deleteThread(owner, threadId);
    expect(await store.getCron(owner, onThread.cronId)).toBeUndefined();
    expect(await store.getCron(owner, elsewhere.cronId)).toBeDefined();
  });
}
