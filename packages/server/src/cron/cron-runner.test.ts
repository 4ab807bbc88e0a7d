import { silentLogger } from "@framework/core";
import { afterEach, describe, expect, it } from "vitest";
import { ResourceNotFoundError } from "../error/resource-not-found-error.js";
import { ThreadBusyConflictError } from "../error/thread-busy-conflict-error.js";
import type { RunCreation } from "../run/run-creation.js";
import type { CronRecord, RunRecord } from "../store/server-store.js";
import { SqliteServerStore } from "../store/sqlite-server-store.js";
import { CronRunner } from "./cron-runner.js";

const stores: SqliteServerStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const due = "2026-03-02T10:00:00.000Z";
const now = new Date("2026-03-02T12:34:56.000Z");

/** A runner over a fresh store holding one cron due at {@link due}; `create` decides each run. */
async function runnerWith(
  create: (creation: RunCreation) => Promise<RunRecord>,
  overrides: Partial<CronRecord> = {},
) {
  const store = new SqliteServerStore({ path: ":memory:" });
  stores.push(store);
  const cron = await store.createCron({
    cronId: "cron",
    owner: "alice",
    assistantId: "assistant",
    threadId: "thread",
    schedule: "0 * * * *",
    timezone: null,
    endTime: null,
    enabled: true,
    nextRunDate: due,
    onRunCompleted: "delete",
    run: {
      input: { question: "tick?" },
      config: { configurable: { model: "small" } },
      multitaskStrategy: "enqueue",
      streamMode: ["updates"],
      webhook: null,
    },
    metadata: { team: "ops" },
    ...overrides,
  });
  const created: { owner: string; threadId: string | undefined; creation: RunCreation }[] = [];
  const runner = new CronRunner({
    store,
    logger: silentLogger,
    runs: {
      create: (owner, threadId, creation) => {
        created.push({ owner, threadId, creation });
        return create(creation);
      },
    },
  });
  return { store, cron, runner, created };
}

const succeed = async () => ({ runId: "run-1" }) as RunRecord;

describe("CronRunner", () => {
  it("creates the tick's run as the cron's owner, and moves the cron to its first tick after now", async () => {
    const { store, cron, runner, created } = await runnerWith(succeed);
    expect(await runner.fire(cron, now)).toEqual({ kind: "fired", runId: "run-1" });
    expect(created).toEqual([
      {
        owner: "alice",
        threadId: "thread",
        creation: {
          assistantId: "assistant",
          input: { question: "tick?" },
          config: { configurable: { model: "small" } },
          metadata: { team: "ops", cron_id: "cron", cron_run_date: due },
          streamMode: ["updates"],
          multitaskStrategy: "enqueue",
          onDisconnect: "continue",
        },
      },
    ]);
    expect((await store.getCron("alice", "cron"))?.nextRunDate).toBe("2026-03-02T13:00:00.000Z");
  });

  it("gives a thread-less cron's runs new threads, kept or not as the cron says", async () => {
    const { cron, runner, created } = await runnerWith(succeed, {
      threadId: null,
      onRunCompleted: "keep",
    });
    await runner.fire(cron, now);
    expect(created[0]).toMatchObject({ threadId: undefined, creation: { onCompletion: "keep" } });
  });

  it("asks for the cron's webhook on each tick's run", async () => {
    const { cron, runner, created } = await runnerWith(succeed, {
      run: {
        input: null,
        config: {},
        multitaskStrategy: "reject",
        streamMode: ["values"],
        webhook: "https://hooks.example.com/cron",
      },
    });
    await runner.fire(cron, now);
    expect(created[0]?.creation.webhook).toBe("https://hooks.example.com/cron");
  });

  it("fires a tick once: a second fire of the same tick, or one not yet due, is taken", async () => {
    const { cron, runner, created } = await runnerWith(succeed);
    expect(await runner.fire(cron, new Date("2026-03-02T09:59:59.000Z"))).toEqual({
      kind: "taken",
    });
    await runner.fire(cron, now);
    expect(await runner.fire(cron, now)).toEqual({ kind: "taken" });
    expect(created).toHaveLength(1);
  });

  it("skips a tick whose run is refused, and still moves on to the next tick", async () => {
    const outcomes = [];
    for (const error of [
      new ThreadBusyConflictError({ threadId: "thread", activeRunIds: ["other"] }),
      new ResourceNotFoundError({ resource: "assistant", id: "assistant" }),
      new Error("store down"),
    ]) {
      const { store, cron, runner } = await runnerWith(() => Promise.reject(error));
      outcomes.push(await runner.fire(cron, now));
      expect((await store.getCron("alice", "cron"))?.nextRunDate).toBe("2026-03-02T13:00:00.000Z");
    }
    expect(outcomes).toEqual([
      { kind: "skipped", reason: "thread-busy" },
      { kind: "skipped", reason: "gone" },
      { kind: "skipped", reason: "failed" },
    ]);
  });

  it("leaves a cron with no tick before its end without a next tick", async () => {
    const { store, cron, runner } = await runnerWith(succeed, {
      endTime: "2026-03-02T12:59:00.000Z",
    });
    await runner.fire(cron, now);
    expect((await store.getCron("alice", "cron"))?.nextRunDate).toBeNull();
  });
});
