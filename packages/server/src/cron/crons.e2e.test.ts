import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "@framework/core";
import { Client, type Cron } from "@langchain/langgraph-sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiKeyAuth } from "../auth/api-key-auth.js";
import { whoAmIGraph } from "../auth/test-auth.js";
import type { ServerOptions } from "../create-server.js";
import { SqliteServerStore } from "../store/sqlite-server-store.js";
import { startTestServer, type TestServer, twoStepGraph } from "../test-server.js";

const keys = {
  "cron-test-key-alice-3b9d1e7f2a6c": "alice",
  "cron-test-key-bob-6e1c9a4d8f2b": "bob",
} as const;

const started: TestServer[] = [];
const directories: string[] = [];
afterEach(async () => {
  for (const running of started.splice(0)) await running.close();
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

async function serve(directory?: string, options: ServerOptions = {}) {
  const running = await startTestServer(
    { graphs: { who: whoAmIGraph() }, auth: apiKeyAuth({ keys }), ...options },
    directory,
  );
  started.push(running);
  const client = (user: "alice" | "bob") =>
    new Client({
      apiUrl: running.url,
      defaultHeaders: {
        "x-api-key": Object.entries(keys).find(([, id]) => id === user)![0],
      },
    });
  return { running, alice: client("alice"), bob: client("bob") };
}

/** Waits for `check` to pass; the guard is for a hang, not a measure of speed. */
const eventually = <T>(check: () => Promise<T>) =>
  vi.waitFor(check, { timeout: 60_000, interval: 50 });

/** The error answer of a refused request. */
interface ErrorAnswer {
  error: { type: string; issues: { path: (string | number)[]; message: string }[] };
}

/** Answers a raw request to `path` as alice. */
async function raw(url: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { "x-api-key": Object.keys(keys)[0]!, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ErrorAnswer };
}

describe("crons through LangGraph's own client", () => {
  it("creates, searches, counts, updates and deletes crons, answering the SDK's Cron shape", async () => {
    // A loopback webhook (never listened on), allowed: no tick here may reach another machine.
    const { alice } = await serve(undefined, { webhooks: { allowPrivateNetworks: true } });
    const thread = await alice.threads.create();
    const nightly = await alice.crons.create("who", {
      schedule: "0 2 * * *",
      timezone: "Europe/Paris",
      input: { question: "nightly?" },
      metadata: { kind: "nightly" },
      webhook: "http://127.0.0.1:9/hook",
      onRunCompleted: "keep",
      endTime: "2099-01-01T00:00:00Z",
    });
    const onThread = await alice.crons.createForThread(thread.thread_id, "who", {
      schedule: "*/15 * * * *",
      multitaskStrategy: "enqueue",
      enabled: false,
      streamMode: ["values", "updates"],
    });
    expect(nightly).toMatchObject({
      assistant_id: expect.any(String),
      thread_id: null,
      on_run_completed: "keep",
      schedule: "0 2 * * *",
      timezone: "Europe/Paris",
      end_time: "2099-01-01T00:00:00.000Z",
      user_id: "alice",
      enabled: true,
      metadata: { kind: "nightly" },
      payload: {
        input: { question: "nightly?" },
        webhook: "http://127.0.0.1:9/hook",
        multitask_strategy: "reject",
        stream_mode: ["values"],
      },
    });
    // 02:00 in Paris is 00:00 or 01:00 UTC, depending on the season.
    expect(new Date(nightly.next_run_date!).getUTCHours()).toBeLessThanOrEqual(1);
    expect(new Date(nightly.next_run_date!).getUTCMinutes()).toBe(0);
    expect(Date.parse(nightly.next_run_date!)).toBeGreaterThan(Date.now());
    expect(onThread).toMatchObject({
      thread_id: thread.thread_id,
      enabled: false,
      next_run_date: null,
      payload: { multitask_strategy: "enqueue", stream_mode: ["values", "updates"] },
    });
    expect(onThread).not.toHaveProperty("on_run_completed");

    const all = await alice.crons.search({ sortBy: "created_at", sortOrder: "asc" });
    expect(all.map((cron: Cron) => cron.cron_id)).toEqual([nightly.cron_id, onThread.cron_id]);
    expect(all[0]).toEqual(nightly);
    expect(
      (await alice.crons.search({ threadId: thread.thread_id })).map((cron) => cron.cron_id),
    ).toEqual([onThread.cron_id]);
    expect((await alice.crons.search({ enabled: false })).map((cron) => cron.cron_id)).toEqual([
      onThread.cron_id,
    ]);
    expect(
      await alice.crons.search({ metadata: { kind: "nightly" }, select: ["cron_id", "schedule"] }),
    ).toEqual([{ cron_id: nightly.cron_id, schedule: "0 2 * * *" }]);
    expect(await alice.crons.count()).toBe(2);
    expect(await alice.crons.count({ assistantId: "who" })).toBe(2);
    expect(await alice.crons.count({ metadata: { kind: "nightly" } })).toBe(1);

    const updated = await alice.crons.update(nightly.cron_id, {
      schedule: "30 6 * * 1-5",
      timezone: "UTC",
      endTime: null,
      metadata: { owner: "ops" },
      input: { question: "weekday?" },
    });
    expect(updated).toMatchObject({
      schedule: "30 6 * * 1-5",
      timezone: "UTC",
      end_time: null,
      metadata: { kind: "nightly", owner: "ops" },
      payload: { input: { question: "weekday?" }, webhook: "http://127.0.0.1:9/hook" },
    });
    const next = new Date(updated.next_run_date!);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([6, 30]);
    expect([1, 2, 3, 4, 5]).toContain(next.getUTCDay());

    const enabled = await alice.crons.update(onThread.cron_id, { enabled: true });
    expect(new Date(enabled.next_run_date!).getUTCMinutes() % 15).toBe(0);
    expect(Date.parse(enabled.next_run_date!)).toBeGreaterThan(Date.now() - 1000);
    expect(
      (await alice.crons.update(onThread.cron_id, { enabled: false, schedule: "0 * * * *" }))
        .next_run_date,
    ).toBeNull();

    await alice.crons.delete(nightly.cron_id);
    expect(await alice.crons.count()).toBe(1);
    await alice.threads.delete(thread.thread_id);
    expect(await alice.crons.count()).toBe(0);
  });

  it("refuses a schedule, time zone or end it cannot read with a 422 naming the field", async () => {
    const { running, alice } = await serve();
    const bad = [
      [{ schedule: "every monday" }, "schedule"],
      [{ schedule: "61 * * * *" }, "schedule"],
      [{ schedule: "0 0 30 2 *" }, "schedule"],
      [{ schedule: "* * * *" }, "schedule"],
      [{ schedule: "0 9 * * *", timezone: "Mars/Olympus" }, "timezone"],
      [{ schedule: "0 9 * * *", end_time: "tomorrow" }, "end_time"],
      [{ schedule: "0 9 * * *", input: { question: 7 } }, "input"],
      [{ schedule: "0 9 * * *", webhook: "ftp://example.com/hook" }, "webhook"],
      [{ schedule: "0 9 * * *", webhook: "http://10.0.0.1/hook" }, "webhook"],
      [{ schedule: "0 9 * * *", interrupt_before: ["who"] }, "interrupt_before"],
    ] as const;
    for (const [fields, field] of bad) {
      const answer = await raw(running.url, "POST", "/runs/crons", {
        assistant_id: "who",
        ...fields,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(422);
      expect(answer.body.error.issues.map((issue) => issue.path)).toContainEqual(
        expect.arrayContaining([field]),
      );
    }
    const cron = await alice.crons.create("who", { schedule: "0 9 * * *" });
    const patched = await raw(running.url, "PATCH", `/runs/crons/${cron.cron_id}`, {
      timezone: "Nowhere/Town",
    });
    expect(patched.status).toBe(422);
    expect(patched.body.error.issues[0]!.path).toEqual(["json", "timezone"]);
    expect((await alice.crons.search())[0]).toEqual(cron);
    expect(await alice.crons.count()).toBe(1);
  });

  it("fires each tick as the cron's owner: on its thread, or on new threads it keeps", async () => {
    const { alice } = await serve();
    const thread = await alice.threads.create();
    const onThread = await alice.crons.createForThread(thread.thread_id, "who", {
      schedule: "* * * * * *",
      input: { question: "tick?" },
      multitaskStrategy: "enqueue",
      metadata: { kind: "threaded" },
    });
    const runs = await eventually(async () => {
      const list = await alice.runs.list(thread.thread_id);
      expect(list.filter((run) => run.status === "success").length).toBeGreaterThanOrEqual(2);
      return list;
    });
    await alice.crons.update(onThread.cron_id, { enabled: false });
    for (const run of runs) {
      expect(run.metadata).toMatchObject({ kind: "threaded", cron_id: onThread.cron_id });
    }
    const ticks = runs.map((run) => run.metadata?.cron_run_date as string);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect((await alice.threads.getState(thread.thread_id)).values).toMatchObject({
      question: "tick?",
      userId: "alice",
    });

    const kept = await alice.crons.create("who", {
      schedule: "* * * * * *",
      input: { question: "new thread?" },
      onRunCompleted: "keep",
    });
    const threads = await eventually(async () => {
      const found = (await alice.threads.search()).filter(
        (other) => other.thread_id !== thread.thread_id,
      );
      expect(found.length).toBeGreaterThanOrEqual(2);
      return found;
    });
    await alice.crons.delete(kept.cron_id);
    for (const other of threads.slice(0, 2)) {
      const [run] = await eventually(async () => {
        const list = await alice.runs.list(other.thread_id);
        expect(list[0]?.status).toBe("success");
        return list;
      });
      expect(run!.metadata).toMatchObject({ cron_id: kept.cron_id });
      expect((await alice.threads.getState(other.thread_id)).values).toMatchObject({
        userId: "alice",
      });
    }
  });

  it("skips the ticks that find its thread busy with reject, and logs each", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const skipped: string[] = [];
    const record = () => {};
    const logger: Logger = {
      debug: record,
      info: (line) => {
        if (line.includes("is busy")) skipped.push(line);
      },
      warn: record,
      error: record,
    };
    const { alice } = await serve(undefined, {
      graphs: { review: twoStepGraph({ writeGate: () => held }) },
      logger,
    });
    const thread = await alice.threads.create();
    const holding = await alice.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "hold" }] },
    });
    const cron = await alice.crons.createForThread(thread.thread_id, "review", {
      schedule: "* * * * * *",
      input: { messages: [{ role: "user", content: "tick" }] },
    });
    await eventually(async () => expect(skipped.length).toBeGreaterThanOrEqual(2));
    expect(skipped[0]).toContain(`Cron ${cron.cron_id}`);
    expect((await alice.runs.list(thread.thread_id)).map((run) => run.run_id)).toEqual([
      holding.run_id,
    ]);
    release();
    const runs = await eventually(async () => {
      const list = await alice.runs.list(thread.thread_id);
      expect(list.filter((run) => run.metadata?.cron_id === cron.cron_id).length).toBeGreaterThan(
        0,
      );
      return list;
    });
    await alice.crons.delete(cron.cron_id);
    expect(runs.at(-1)!.run_id).toBe(holding.run_id);
  });

  it("keeps crons to their owner: another user's is a 404, and never in their search or count", async () => {
    const { alice, bob } = await serve();
    const thread = await alice.threads.create();
    const cron = await alice.crons.createForThread(thread.thread_id, "who", {
      schedule: "0 9 * * *",
    });
    const status = (promise: Promise<unknown>) =>
      promise.then(
        () => 200,
        (error: { status?: number }) => error.status,
      );
    expect(await status(bob.crons.update(cron.cron_id, { enabled: false }))).toBe(404);
    expect(await status(bob.crons.delete(cron.cron_id))).toBe(404);
    expect(
      await status(bob.crons.createForThread(thread.thread_id, "who", { schedule: "* * * * *" })),
    ).toBe(404);
    expect(await bob.crons.search()).toEqual([]);
    expect(await bob.crons.count()).toBe(0);
    expect(await alice.crons.search()).toEqual([cron]);
  });

  it("keeps a schedule across a restart, and fires a tick missed while down once", async () => {
    const directory = mkdtempSync(join(tmpdir(), "framework-server-crons-"));
    directories.push(directory);
    const first = await serve(directory);
    const hourly = await first.alice.crons.create("who", {
      schedule: "0 * * * *",
      input: { question: "missed?" },
      onRunCompleted: "keep",
    });
    const later = await first.alice.crons.create("who", { schedule: "0 0 1 1 *" });
    // close() of a test server deletes its folder: stop the server alone.
    await first.running.server.close();
    started.splice(started.indexOf(first.running), 1);

    // While no server ran, three hourly ticks went by.
    const missed = new Date(Date.now() - 3 * 60 * 60 * 1000);
    missed.setUTCMinutes(0, 0, 0);
    const store = new SqliteServerStore({ path: join(directory, "server.sqlite") });
    await store.updateCron("alice", hourly.cron_id, { nextRunDate: missed.toISOString() });
    await store.close();

    const second = await serve(directory);
    const threads = await eventually(async () => {
      const found = await second.alice.threads.search();
      expect(found.length).toBeGreaterThanOrEqual(1);
      return found;
    });
    const [cronNow] = await second.alice.crons.search({
      metadata: {},
      sortBy: "created_at",
      sortOrder: "asc",
    });
    expect(Date.parse(cronNow!.next_run_date!)).toBeGreaterThan(Date.now() - 1000);
    const runs = (
      await Promise.all(threads.map((thread) => second.alice.runs.list(thread.thread_id)))
    ).flat();
    const dates = runs.map((run) => run.metadata?.cron_run_date as string);
    expect(dates.filter((date) => Date.parse(date) < Date.now() - 60 * 60 * 1000)).toEqual([
      missed.toISOString(),
    ]);
    expect(
      (await second.alice.crons.search({ sortBy: "created_at", sortOrder: "asc" }))[1],
    ).toEqual(later);
  });
});
