import { silentLogger } from "@framework/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunCreation } from "../run/run-creation.js";
import type { CronRecord, RunRecord } from "../store/server-store.js";
import { SqliteServerStore } from "../store/sqlite-server-store.js";
import { CronRunner } from "./cron-runner.js";
import { TimerCronScheduler } from "./cron-scheduler.js";

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A scheduler over an in-memory store whose runs are only recorded. */
function scheduler(options: { pollIntervalMs: number; batchSize?: number }, gate?: Promise<void>) {
  const store = new SqliteServerStore({ path: ":memory:" });
  const created: { owner: string; threadId: string | undefined; creation: RunCreation }[] = [];
  const runs = {
    async create(owner: string, threadId: string | undefined, creation: RunCreation) {
      created.push({ owner, threadId, creation });
      await gate;
      return { runId: `run-${created.length}` } as RunRecord;
    },
  };
  const timer = new TimerCronScheduler({
    store,
    runner: new CronRunner({ store, runs, logger: silentLogger }),
    logger: silentLogger,
    ...options,
  });
  closing.push(async () => {
    await timer.close();
    await store.close();
  });
  return { store, timer, created };
}

const hourly = (
  cronId: string,
  nextRunDate: string,
): Omit<CronRecord, "createdAt" | "updatedAt"> => ({
  cronId,
  owner: "alice",
  assistantId: "assistant",
  threadId: null,
  schedule: "0 * * * *",
  timezone: null,
  endTime: null,
  enabled: true,
  nextRunDate,
  onRunCompleted: "delete",
  run: {
    input: null,
    config: {},
    multitaskStrategy: "reject",
    streamMode: ["values"],
    webhook: null,
  },
  metadata: {},
});

const eventually = (check: () => void | Promise<void>) =>
  vi.waitFor(check, { timeout: 60_000, interval: 10 });

describe("TimerCronScheduler", () => {
  it("fires every due cron once, past a full batch, and moves each to its next tick after now", async () => {
    const { store, timer, created } = scheduler({ pollIntervalMs: 3_600_000, batchSize: 2 });
    const long = "2020-01-01T00:00:00.000Z";
    for (let index = 0; index < 5; index++) await store.createCron(hourly(`cron-${index}`, long));
    const started = Date.now();
    timer.start();
    await eventually(() => expect(created).toHaveLength(5));
    expect(created.map((run) => run.creation.metadata?.cron_id).sort()).toEqual([
      "cron-0",
      "cron-1",
      "cron-2",
      "cron-3",
      "cron-4",
    ]);
    expect(created.every((run) => run.creation.metadata?.cron_run_date === long)).toBe(true);
    for (const cron of await store.upcomingCrons(10)) {
      expect(Date.parse(cron.nextRunDate!)).toBeGreaterThan(started);
      expect(new Date(cron.nextRunDate!).getUTCMinutes()).toBe(0);
    }
  });

  it("looks again at once when told a cron changed, without waiting for its poll", async () => {
    const { store, timer, created } = scheduler({ pollIntervalMs: 3_600_000 });
    timer.start();
    await store.createCron(hourly("late", "2020-01-01T00:00:00.000Z"));
    timer.changed();
    await eventually(() => expect(created).toHaveLength(1));
  });

  it("settles close() once the tick under way has its run, and fires nothing more", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { store, timer, created } = scheduler({ pollIntervalMs: 3_600_000 }, gate);
    for (const cronId of ["first", "second"]) {
      await store.createCron(hourly(cronId, "2020-01-01T00:00:00.000Z"));
    }
    timer.start();
    await eventually(() => expect(created).toHaveLength(1));
    let closed = false;
    const closing = timer.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    await closing;
    timer.changed();
    expect(created).toHaveLength(1);
  });
});
