import { fileURLToPath } from "node:url";
import type { PostgresSaver } from "@framework/checkpoint-postgres";
import { internalsOf } from "@framework/checkpoint-postgres/internal";
import { AbortedError, ConfigurationError, silentLogger } from "@framework/core";
import { MemorySaver } from "@framework/graph";
import { Gate, runFixtureChild, uniqueName } from "@framework/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CrewQueue } from "./crew-queue.js";
import { CrewWorker, type CrewWorkerOptions } from "./crew-worker.js";
import { RunCancelledError } from "./error/run-cancelled-error.js";
import { RunFailedError } from "./error/run-failed-error.js";
import { RunNotFoundError } from "./error/run-not-found-error.js";
import { RunNotResumableError } from "./error/run-not-resumable-error.js";
import { RunTimeoutError } from "./error/run-timeout-error.js";
import { ThreadBusyError } from "./error/thread-busy-error.js";
import { RunJobs } from "./internal/run-jobs.js";
import { RunStore } from "./internal/run-store.js";
import { jobIdOf } from "./queue-connection.js";
import type { RunEvent } from "./run/run-event.js";
import { expectedState, type NodeHook, testCrew } from "./test-crew.js";
import {
  dropSchema,
  effectsOf,
  loseQueueKeys,
  redisUrl,
  servicesMissing,
  testSaver,
} from "./test-services.js";

/** Resolves once `signal` aborts, rejecting with its reason as a node that stops would. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const workerFixture = fileURLToPath(new URL("../test/fixtures/worker.ts", import.meta.url));

interface Harness {
  schema: string;
  saver: PostgresSaver;
  queue: CrewQueue;
  queueName: string;
  worker(
    options?: { hooks?: Partial<Record<"a" | "b" | "c", NodeHook>> } & Partial<
      Omit<CrewWorkerOptions, "checkpointer" | "saver">
    >,
  ): Promise<CrewWorker>;
  /** A second queue on the same runs, as another API process would have. */
  other(): Promise<CrewQueue>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function createHarness(label: string): Promise<Harness> {
  const schema = uniqueName(label);
  const queueName = uniqueName(label);
  const saver = await testSaver(schema);
  const connection = { url: redisUrl! };
  const queue = new CrewQueue({ connection, checkpointer: saver, queueName, retryBackoffMs: 50 });
  cleanups.push(async () => {
    await queue.close();
    await loseQueueKeys(queueName);
    await saver.close();
    await dropSchema(schema);
  });
  let count = 0;
  return {
    schema,
    saver,
    queue,
    queueName,
    async other() {
      const otherSaver = await testSaver(schema);
      const other = new CrewQueue({ connection, checkpointer: otherSaver, queueName });
      cleanups.push(async () => {
        await other.close();
        await otherSaver.close();
      });
      return other;
    },
    async worker(options = {}) {
      count += 1;
      const workerId = options.workerId ?? `w${count}`;
      const worker = new CrewWorker({
        connection,
        checkpointer: saver,
        queueName,
        workerId,
        crews: { test: testCrew({ saver, worker: workerId, hooks: options.hooks ?? {} }) },
        lockDurationMs: 1_000,
        stalledIntervalMs: 500,
        sweepIntervalMs: 0,
        drainTimeoutMs: 200,
        ...options,
      });
      await worker.start();
      cleanups.push(() => worker.close());
      return worker;
    },
  };
}

describe("CrewQueue and CrewWorker options", () => {
  const settingOf = (make: () => unknown) => {
    try {
      make();
    } catch (error) {
      return ConfigurationError.isInstance(error) ? error.setting : "another error";
    }
    return "none";
  };
  // Refused before either connects to Redis, so no server is needed here.
  const connection = { url: "redis://127.0.0.1:1" };
  const crews = { test: () => ({}) as never };

  it("refuse options without a checkpointer", () => {
    expect(settingOf(() => new CrewQueue({ connection } as never))).toBe("checkpointer");
    expect(settingOf(() => new CrewWorker({ connection, crews } as never))).toBe("checkpointer");
  });

  it("refuse a checkpointer that is not a PostgresSaver", () => {
    const checkpointer = new MemorySaver() as never;
    expect(settingOf(() => new CrewQueue({ connection, checkpointer }))).toBe("checkpointer");
    expect(settingOf(() => new CrewWorker({ connection, checkpointer, crews }))).toBe(
      "checkpointer",
    );
  });
});

describe.skipIf(servicesMissing)("CrewQueue and CrewWorker", () => {
  it("runs a submitted crew on a worker and returns its final state", async () => {
    const { queue, worker, saver } = await createHarness("basic");
    const run = await queue.submit("test", { query: "q1", userId: "alice", threadId: "7" });
    expect(run).toMatchObject({ threadId: "7", status: "pending" });
    expect(jobIdOf(run.runId)).toBe(`run-${run.runId}`);
    await worker();

    const state = await queue.result(run.runId, { timeoutMs: 60_000 });
    expect(state).toMatchObject(expectedState("q1"));
    const record = await queue.get(run.runId);
    expect(record).toMatchObject({ status: "done", attempts: 1, leaseEpoch: 1, worker: "w1" });
    expect((await effectsOf(saver, run.runId)).map((effect) => effect.node)).toEqual([
      "a",
      "b",
      "c",
    ]);
    const latest = await saver.getLatest("7");
    expect(latest).toMatchObject({ runId: run.runId, status: "done" });
    expect(latest?.metadata).toMatchObject({ user_id: "alice", worker: "w1", attempt: 1 });
    // A run already over: its result again, and its final status as its only event.
    expect(await queue.result(run.runId)).toEqual(state);
    const events: RunEvent[] = [];
    for await (const event of queue.events(run.runId)) events.push(event);
    expect(events).toEqual([
      { type: "status", runId: run.runId, status: "done", at: record.finishedAt!.toISOString() },
    ]);
  });

  it("streams node and status events of a run from whichever worker holds it", async () => {
    const { queue, worker } = await createHarness("events");
    const run = await queue.submit("test", { query: "q" });
    const events: RunEvent[] = [];
    // Opens the queue's LISTEN connection, so the first step of `events` below subscribes at
    // once, before any worker exists: every event of the run is seen.
    await queue.result(run.runId, { timeoutMs: 1 }).catch(() => undefined);
    const following = (async () => {
      for await (const event of queue.events(run.runId)) events.push(event);
    })();
    await worker();
    await following;
    expect(
      events.map((event) =>
        event.type === "status" ? event.status : `${event.type}:${event.node}`,
      ),
    ).toEqual([
      "pending",
      "running",
      "node_start:a",
      "node_end:a",
      "node_start:b",
      "node_end:b",
      "node_start:c",
      "node_end:c",
      "done",
    ]);
    expect(events[1]).toMatchObject({ worker: "w1", attempt: 1 });
    // Status events carry the database's commit time: run latency from pending to done.
    const [pending, done] = [events[0], events.at(-1)].map((event) =>
      event?.type === "status" ? Date.parse(event.at) : Number.NaN,
    );
    expect(done! - pending!).toBeGreaterThanOrEqual(0);
  });

  it("replays a run's logged events after a sequence number, then follows live: each once, in order", async () => {
    const { queue, worker } = await createHarness("replay");
    const [inNodeB, release] = [new Gate(), new Gate()];
    await worker({
      hooks: {
        b: async () => {
          inNodeB.open();
          await release.opened;
        },
      },
    });
    const run = await queue.submit("test", { query: "q" });
    await inNodeB.opened;
    // A follower that joins late gets everything from the start, and drops after two events.
    const first: RunEvent[] = [];
    for await (const event of queue.events(run.runId, { after: 0 })) {
      first.push(event);
      if (first.length === 2) break;
    }
    // Resuming from the last number it saw, it gets the rest: what was logged meanwhile,
    // then the events that follow while it waits.
    const rest: RunEvent[] = [];
    const following = (async () => {
      for await (const event of queue.events(run.runId, { after: first.at(-1)!.seq! })) {
        rest.push(event);
        if (rest.length === 2) release.open();
      }
    })();
    await following;
    const label = (event: RunEvent) =>
      event.type === "status" ? event.status : `${event.type}:${event.node}`;
    expect([...first, ...rest].map(label)).toEqual([
      "running",
      "node_start:a",
      "node_end:a",
      "node_start:b",
      "node_end:b",
      "node_start:c",
      "node_end:c",
      "done",
    ]);
    expect([...first, ...rest].map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The whole log again, from any later point, once the run is over.
    const again: RunEvent[] = [];
    for await (const event of queue.events(run.runId, { after: 6 })) again.push(event);
    expect(again.map(label)).toEqual(["node_end:c", "done"]);
    const none: RunEvent[] = [];
    for await (const event of queue.events(run.runId, { after: 8 })) none.push(event);
    expect(none).toEqual([]);
  });

  it("tells a follower that comes after a worker took the run which worker holds it", async () => {
    const { queue, worker } = await createHarness("late_follower");
    let entered!: () => void;
    const inNodeA = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await worker({
      hooks: {
        a: async () => {
          entered();
          await released;
        },
      },
    });
    const run = await queue.submit("test", { query: "q" });
    await inNodeA;
    const events: RunEvent[] = [];
    // The run goes on only once the follower heard its first event: released earlier, it
    // could be over before the subscription is, and the follower would rightly hear only that.
    for await (const event of queue.events(run.runId)) {
      events.push(event);
      if (events.length === 1) release();
    }
    const statuses = events.filter((event) => event.type === "status");
    expect(statuses.map((event) => event.status)).toEqual(["running", "done"]);
    expect(statuses[0]).toMatchObject({ worker: "w1", attempt: 1 });
  });

  it("refuses a second run on a busy thread, or queues it behind with ifBusy: queue", async () => {
    const { queue, worker } = await createHarness("busy");
    const first = await queue.submit("test", { query: "one", threadId: "t" });
    const refused = await queue
      .submit("test", { query: "two", threadId: "t" })
      .catch((e: unknown) => e);
    expect(ThreadBusyError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ threadId: "t", activeRunId: first.runId });

    const second = await queue.submit("test", { query: "two", threadId: "t" }, { ifBusy: "queue" });
    expect(second.status).toBe("queued");
    const third = await queue.submit(
      "test",
      { query: "three", threadId: "t" },
      { ifBusy: "queue" },
    );
    // Behind queued runs a thread is busy too: nobody jumps the queue.
    const jumped = await queue
      .submit("test", { query: "four", threadId: "t" })
      .catch((e: unknown) => e);
    expect(ThreadBusyError.isInstance(jumped)).toBe(true);
    // Another thread is free.
    await queue.submit("test", { query: "x", threadId: "other" });

    await worker({ concurrency: 3 });
    const states = [
      await queue.result(first.runId),
      await queue.result(second.runId),
      await queue.result(third.runId),
    ];
    // One thread, one run at a time: each run continued the state the one before left.
    expect(states.map((state) => state.log)).toEqual([
      ["a", "b", "c"],
      ["a", "b", "c", "a", "b", "c"],
      ["a", "b", "c", "a", "b", "c", "a", "b", "c"],
    ]);
    const runs = await Promise.all([first, second, third].map((run) => queue.get(run.runId)));
    for (let i = 1; i < runs.length; i += 1) {
      expect(runs[i]!.startedAt!.getTime()).toBeGreaterThanOrEqual(
        runs[i - 1]!.finishedAt!.getTime(),
      );
    }
  });

  it("makes a double submit of one run id one run and one job", async () => {
    const { queue, worker, saver } = await createHarness("double");
    const [one, two] = await Promise.all([
      queue.submit("test", { query: "q", threadId: "d" }, { runId: "fixed-id" }),
      queue.submit("test", { query: "q", threadId: "d" }, { runId: "fixed-id" }),
    ]);
    expect(one.runId).toBe("fixed-id");
    expect(two.runId).toBe("fixed-id");
    expect((await queue.stats()).jobs.waiting).toBe(1);
    await worker();
    await queue.result("fixed-id");
    expect(await effectsOf(saver)).toHaveLength(3);
  });

  it("fences a worker whose lease moved on: its checkpoints are refused and it records nothing", async () => {
    const { queue, worker, saver } = await createHarness("fence");
    const bStarted = new Gate();
    const release = new Gate();
    const lost = new Gate();
    await worker({
      logger: {
        ...silentLogger,
        warn: (line: string) => /Lost the lease/.test(line) && lost.open(),
      },
      hooks: {
        b: async () => {
          bStarted.open();
          await release.opened;
        },
      },
    });
    const run = await queue.submit("test", { query: "q", threadId: "f" });
    await bStarted.opened;
    const before = (await saver.getLatest("f"))!.seq;
    // Another holder takes the lease, as after this worker froze past its lock.
    await internalsOf(saver).query(
      "take over",
      `UPDATE "${saver.schema}".crew_runs SET lease_epoch = lease_epoch + 1 WHERE run_id = $1`,
      [run.runId],
    );
    release.open();
    await lost.opened;
    // The zombie's b ended, but nothing it wrote landed, and it did not end the run.
    expect((await saver.getLatest("f"))!.seq).toBe(before);
    expect(await queue.get(run.runId)).toMatchObject({ status: "running", leaseEpoch: 2 });
  });

  it("cancels a running run from another process through the node signal, and resumes it", async () => {
    const { queue, worker, saver, ...harness } = await createHarness("cancel");
    const seen: string[] = [];
    const bStarted = new Gate();
    let holdB = true;
    await worker({
      hooks: {
        b: async ({ signal }) => {
          if (!holdB) return;
          bStarted.open();
          await untilAborted(signal).catch((reason: unknown) => {
            seen.push(AbortedError.isInstance(reason) ? "AbortedError" : String(reason));
            throw reason;
          });
        },
      },
    });
    const run = await queue.submit("test", { query: "q", threadId: "c" });
    await bStarted.opened;
    // Another API process: its own Postgres pool and Redis connection.
    const other = await harness.other();
    expect(await other.cancel(run.runId)).toBe("running");
    const failure = await queue.result(run.runId).catch((e: unknown) => e);
    expect(RunCancelledError.isInstance(failure)).toBe(true);
    expect(seen).toEqual(["AbortedError"]);
    expect(await saver.getLatest("c")).toMatchObject({ status: "cancelled", runId: run.runId });

    holdB = false;
    const refused = await queue
      .resume(run.runId)
      .then(() => queue.resume(run.runId))
      .catch((e: unknown) => e);
    expect(RunNotResumableError.isInstance(refused)).toBe(true);
    expect(await queue.result(run.runId)).toMatchObject(expectedState("q"));
    // a finished before the cancel and is not run again; b runs again with the same key.
    const effects = await effectsOf(saver, run.runId);
    expect(effects.map((effect) => effect.node)).toEqual(["a", "b", "b", "c"]);
    expect(effects[1]!.key).toBe(effects[2]!.key);
  });

  it("cancels a run no worker holds at once, and starts the next queued run of its thread", async () => {
    const { queue, worker } = await createHarness("cancel_pending");
    const first = await queue.submit("test", { query: "one", threadId: "p" });
    const second = await queue.submit("test", { query: "two", threadId: "p" }, { ifBusy: "queue" });
    expect(await queue.cancel(first.runId)).toBe("cancelled");
    expect((await queue.get(second.runId)).status).toBe("pending");
    await worker();
    expect(await queue.result(second.runId)).toMatchObject(expectedState("two"));
    expect(
      RunCancelledError.isInstance(await queue.result(first.runId).catch((e: unknown) => e)),
    ).toBe(true);
    expect(await queue.cancel(first.runId)).toBe("cancelled");
    expect(RunNotFoundError.isInstance(await queue.cancel("nope").catch((e: unknown) => e))).toBe(
      true,
    );
  });

  it("fails a run whose node throws, typed, and resumes it without re-running finished nodes", async () => {
    const { queue, worker, saver } = await createHarness("fail");
    let failB = true;
    await worker({
      hooks: {
        b: () => {
          if (failB) throw new Error("upstream down");
        },
      },
    });
    const run = await queue.submit("test", { query: "q", threadId: "x" });
    const failure = await queue.result(run.runId).catch((e: unknown) => e);
    expect(RunFailedError.isInstance(failure)).toBe(true);
    expect((failure as RunFailedError).error).toMatch(/NodeExecutionError.*upstream down/);
    failB = false;
    await queue.resume(run.runId);
    expect(await queue.result(run.runId)).toMatchObject(expectedState("q"));
    expect((await effectsOf(saver, run.runId)).map((effect) => effect.node)).toEqual([
      "a",
      "b",
      "b",
      "c",
    ]);
  });

  it("fails a run of a crew the worker does not know with UnknownCrewError's message", async () => {
    const { queue, worker } = await createHarness("unknown");
    await worker();
    const run = await queue.submit("nobody", { query: "q" });
    const failure = await queue.result(run.runId).catch((e: unknown) => e);
    expect((failure as RunFailedError).error).toMatch(/UnknownCrewError.*"nobody".*"test"/);
  });

  it("fails a run taken maxRunAttempts times instead of running it again", async () => {
    const { queue, worker, saver } = await createHarness("poison");
    const run = await queue.submit("test", { query: "q" });
    // Two workers already took it and died on it.
    await internalsOf(saver).query(
      "attempts",
      `UPDATE "${saver.schema}".crew_runs SET attempts = 2`,
    );
    await worker({ maxRunAttempts: 2 });
    const failure = await queue.result(run.runId).catch((e: unknown) => e);
    expect((failure as RunFailedError).error).toMatch(/taken 2 times without finishing/);
    expect(await effectsOf(saver, run.runId)).toEqual([]);
  });

  it("gives up waiting for a result with RunTimeoutError while the run goes on", async () => {
    const { queue } = await createHarness("timeout");
    const run = await queue.submit("test", { query: "q" });
    const failure = await queue.result(run.runId, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(RunTimeoutError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ runId: run.runId, status: "pending", timeoutMs: 50 });
    expect(RunNotFoundError.isInstance(await queue.result("nope").catch((e: unknown) => e))).toBe(
      true,
    );
  });

  it("re-adds the jobs of active runs Redis lost, on a sweep", async () => {
    const { queue, queueName, worker } = await createHarness("sweep");
    const run = await queue.submit("test", { query: "q" });
    expect(await loseQueueKeys(queueName)).toBeGreaterThan(0);
    expect(await queue.sweep()).toEqual({ requeued: [run.runId], promoted: [] });
    expect(await queue.sweep()).toEqual({ requeued: [], promoted: [] });
    await worker();
    expect(await queue.result(run.runId)).toMatchObject(expectedState("q"));
  });

  it("re-adds the job of one active run that has none, and of no other run", async () => {
    const { queue, queueName, worker, saver } = await createHarness("requeue");
    // What a worker does as each job ends.
    const jobs = new RunJobs({
      name: queueName,
      connection: { url: redisUrl! },
      store: new RunStore(saver),
      logger: silentLogger,
      attempts: 1,
      backoffMs: 50,
    });
    cleanups.push(() => jobs.close());
    const run = await queue.submit("test", { query: "q" });
    // Its job still waits: nothing to add.
    expect(await jobs.requeueIfJobless(run.runId)).toBe(false);
    // As when a resume's job was refused because the previous job still held the id.
    expect(await loseQueueKeys(queueName)).toBeGreaterThan(0);
    expect(await jobs.requeueIfJobless(run.runId)).toBe(true);
    expect(await jobs.requeueIfJobless(run.runId)).toBe(false);
    await worker();
    expect(await queue.result(run.runId)).toMatchObject(expectedState("q"));
    // A finished run gets no job again.
    expect(await jobs.requeueIfJobless(run.runId)).toBe(false);
    expect(await jobs.requeueIfJobless("nope")).toBe(false);
  });

  it("closes gracefully: a short run finishes, a long one is checkpointed and resumed elsewhere", async () => {
    const { queue, worker, saver } = await createHarness("close");
    const bStarted = new Gate();
    const first = await worker({
      drainTimeoutMs: 100,
      hooks: {
        b: async ({ signal }) => {
          bStarted.open();
          await untilAborted(signal);
        },
      },
    });
    const run = await queue.submit("test", { query: "q", threadId: "g" });
    await bStarted.opened;
    await first.close();
    expect(first.running).toEqual([]);
    expect(await queue.get(run.runId)).toMatchObject({ status: "pending" });
    expect(await saver.getLatest("g")).toMatchObject({ status: "cancelled", runId: run.runId });

    await worker();
    expect(await queue.result(run.runId)).toMatchObject(expectedState("q"));
    expect(
      (await effectsOf(saver, run.runId)).map((effect) => `${effect.node}@${effect.worker}`),
    ).toEqual(["a@w1", "b@w1", "b@w2", "c@w2"]);
  });

  it("resumes a run on another worker after its worker is SIGKILLed mid-node, re-running only that node", async () => {
    const { queue, queueName, schema, saver, worker } = await createHarness("crash");
    const run = await queue.submit("test", { query: "q", threadId: "k" });
    const config = { schema, queueName, workerId: "child", hangIn: "b" };
    const child = await runFixtureChild(workerFixture, [JSON.stringify(config)], {
      cwd: packageRoot,
      killAfter: (lines) => (lines.includes(`b ${run.runId}`) ? 0 : undefined),
      // Killed at the end even if the test gave up first.
      onStart: (process) => cleanups.push(async () => void process.kill("SIGKILL")),
    });
    expect(child.signal).toBe("SIGKILL");
    expect(await saver.getLatest("k")).toMatchObject({ runId: run.runId, status: "running" });

    // The dead worker's job lock expires; this worker's stall check takes the run over.
    await worker();
    expect(await queue.result(run.runId)).toMatchObject(expectedState("q"));
    const effects = await effectsOf(saver, run.runId);
    expect(effects.map((effect) => `${effect.node}@${effect.worker}`)).toEqual([
      "a@child",
      "b@child",
      "b@w1",
      "c@w1",
    ]);
    expect(effects[1]!.key).toBe(effects[2]!.key);
    expect(await queue.get(run.runId)).toMatchObject({
      status: "done",
      attempts: 2,
      leaseEpoch: 2,
    });
  });

  it("runs a crew given the saver by its deprecated name, warning once per process", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    cleanups.push(async () => {
      warn.mockRestore();
    });
    const { saver, queueName } = await createHarness("alias");
    const connection = { url: redisUrl! };
    const queue = new CrewQueue({ connection, saver, queueName });
    cleanups.push(() => queue.close());
    const worker = new CrewWorker({
      connection,
      saver,
      queueName,
      crews: { test: testCrew({ saver, worker: "old" }) },
      sweepIntervalMs: 0,
    });
    cleanups.push(() => worker.close());
    await worker.start();
    const run = await queue.submit("test", { query: "q", threadId: "old" });
    expect(await queue.result(run.runId)).toMatchObject(expectedState("q"));
    const deprecations = warn.mock.calls.filter(
      ([, options]) =>
        (options as { code?: string } | undefined)?.code === "FRAMEWORK_CREW_QUEUE_SAVER",
    );
    expect(deprecations).toEqual([
      [
        expect.stringMatching(/saver option is deprecated/),
        { type: "DeprecationWarning", code: "FRAMEWORK_CREW_QUEUE_SAVER" },
      ],
    ]);
  });
});
