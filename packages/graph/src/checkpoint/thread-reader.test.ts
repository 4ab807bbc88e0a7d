import { readFileSync } from "node:fs";
import { ConfigurationError } from "@framework/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkpointAt, collect } from "../conformance/conformance-context.js";
import { CheckpointNotFoundError } from "../error/checkpoint-not-found-error.js";
import { CorruptThreadError } from "../error/corrupt-thread-error.js";
import { NodeExecutionError } from "../error/node-execution-error.js";
import { LATEST_STATE_CACHE_THREADS } from "../graph/compiled-graph.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState } from "../state/state-definition.js";
import type { Checkpoint, CheckpointV1 } from "./checkpoint.js";
import { MemorySaver } from "./memory-saver.js";
import { DEFAULT_SNAPSHOT_RATIO } from "./snapshot-policy.js";
import type { StateSnapshot } from "./state-snapshot.js";
import { CountingCheckpointer } from "./test-counting-checkpointer.js";

const State = defineState({
  log: reducer(z.array(z.string()), appendReducer, () => []),
  count: z.number().default(0),
});

const thread = (id: string) => ({ configurable: { thread_id: id } });

/** A one-node loop that runs `steps` times and fails once at `failAt`, counting its runs. */
function loopGraph(steps: number, failAt: number) {
  const runs: number[] = [];
  let failed = false;
  const graph = new FlowStateGraph(State)
    .addNode("step", (state) => {
      runs.push(state.count);
      if (state.count === failAt && !failed) {
        failed = true;
        throw new Error(`failure at step ${failAt}`);
      }
      return { count: state.count + 1 };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (state) => (state.count < steps ? "step" : END), ["step", END]);
  return { graph, runs };
}

/**
 * The most reading checkpoint `seq` may cost by the snapshot rule: its snapshot's checkpoint
 * and the ones after it weigh less than `1 + ratio` times that snapshot, in stored JSON bytes.
 * A checkpoint weighs its own weights by the previous ones' digits: 4 bytes of slack apiece.
 */
async function readBound(saver: MemorySaver, threadId: string, seq: number): Promise<number> {
  const [checkpoint] = await collect(saver.list(threadId, { beforeSeq: seq + 1, limit: 1 }));
  const { snapshotSeq } = checkpoint as Checkpoint;
  const snapshotBytes = saver.checkpointBytes(threadId)[snapshotSeq]!;
  return (1 + DEFAULT_SNAPSHOT_RATIO) * snapshotBytes + 4 * (seq - snapshotSeq + 1);
}

describe("reading a long thread", () => {
  it("resumes after a failure at step 9,999 reading one snapshot's worth, re-running nothing finished", async () => {
    const memory = new MemorySaver();
    const saver = new CountingCheckpointer(memory);
    const { graph, runs } = loopGraph(10_000, 9_998);
    const app = graph.compile({ checkpointer: saver, stepLimit: 20_000 });
    const newestBound = async () =>
      readBound(memory, "long", (await memory.getLatest("long"))!.seq);
    await expect(app.invoke({ log: "go" }, thread("long"))).rejects.toSatisfy(
      NodeExecutionError.isInstance,
    );
    expect(runs).toHaveLength(9_999);

    const failedBound = await newestBound();
    saver.reset();
    const failed = await app.getState(thread("long"));
    expect(saver.bytesRead).toBeLessThan(failedBound);
    expect(saver.reads).toBeLessThan(10);
    expect(failed).toMatchObject({ status: "failed", next: ["step"], values: { count: 9_998 } });

    saver.reset();
    const final = await app.invoke(null, thread("long"));
    expect(saver.bytesRead).toBeLessThan(failedBound);
    expect(final.count).toBe(10_000);
    expect(runs).toHaveLength(10_001);
    expect(runs.slice(-3)).toEqual([9_998, 9_998, 9_999]);

    const latest = (await memory.getLatest("long")) as Checkpoint;
    // The three newest straddle the resumed run's first checkpoint, a snapshot: two
    // snapshots' worth, never the thread.
    const historyBound =
      (await readBound(memory, "long", latest.seq)) +
      (await readBound(memory, "long", latest.snapshotSeq - 1));
    saver.reset();
    const newest = await collect(take(app.getStateHistory(thread("long")), 3));
    expect(newest.map((snapshot) => snapshot.values.count)).toEqual([10_000, 9_999, 9_998]);
    expect(saver.bytesRead).toBeLessThan(historyBound);

    const doneBound = await newestBound();
    saver.reset();
    await app.invoke({ log: "more" }, thread("long"));
    expect(saver.bytesRead).toBeLessThan(doneBound);
  }, 300_000);

  it("answers getState of an unchanged thread from its newest checkpoint alone", async () => {
    const saver = new CountingCheckpointer(new MemorySaver());
    const app = loopGraph(250, -1).graph.compile({ checkpointer: saver, stepLimit: 1_000 });
    await app.invoke({ log: "go" }, thread("cached"));
    saver.reset();
    const first = await app.getState(thread("cached"));
    expect(saver.reads).toBeGreaterThan(1);
    saver.reset();
    expect(await app.getState(thread("cached"))).toEqual(first);
    expect(saver.reads).toBe(1);
  });

  it("reads only what is new when polling a growing thread, across snapshots and runs", async () => {
    const saver = new CountingCheckpointer(new MemorySaver());
    const { graph } = loopGraph(1_000, -1);
    const compile = () => graph.compile({ checkpointer: saver, snapshotEvery: 20, stepLimit: 3 });
    const polled = compile();
    const config = thread("polled");
    for (let turn = 0; turn < 12; turn++) {
      const before = (await saver.getLatest("polled"))?.seq ?? -1;
      await expect(polled.invoke({ log: `turn ${turn}` }, config)).rejects.toThrow();
      const after = (await saver.getLatest("polled"))!.seq;
      saver.reset();
      const read = await polled.getState(config);
      // getLatest, the kept checkpoint (to check it still stands) and the new ones at most.
      if (turn > 0) expect(saver.reads).toBeLessThanOrEqual(after - before + 2);
      expect(read).toEqual(await compile().getState(config));
    }
  });

  it("keeps the newest state of at most LATEST_STATE_CACHE_THREADS threads", async () => {
    const saver = new CountingCheckpointer(new MemorySaver());
    // Only each thread's first checkpoint is a snapshot, so an uncached read folds.
    const app = loopGraph(3, -1).graph.compile({
      checkpointer: saver,
      snapshotRatio: Number.POSITIVE_INFINITY,
    });
    const threads = Array.from({ length: LATEST_STATE_CACHE_THREADS + 1 }, (_, i) => `t${i}`);
    for (const id of threads) await app.invoke({ log: id }, thread(id));
    for (const id of threads) await app.getState(thread(id));
    saver.reset();
    await app.getState(thread(threads.at(-1)!));
    expect(saver.reads).toBe(1);
    // The least recently read thread was dropped: it is folded again.
    saver.reset();
    expect((await app.getState(thread("t0"))).values.log).toEqual(["t0"]);
    expect(saver.reads).toBeGreaterThan(1);
  });

  it("gives the same history whatever the snapshot interval", async () => {
    const histories: StateSnapshot[][] = [];
    const policies = [
      { snapshotRatio: 0 },
      { snapshotRatio: Number.POSITIVE_INFINITY, snapshotEvery: 3 },
      { snapshotRatio: Number.POSITIVE_INFINITY },
      {},
    ];
    for (const policy of policies) {
      let failOnce = true;
      const graph = new FlowStateGraph(State)
        .addNode("a", () => ({ log: "a" }))
        .addNode("b", () => ({ log: "b" }))
        .addNode("c", () => ({ log: "c" }))
        .addNode("join", () => {
          if (failOnce) {
            failOnce = false;
            throw new Error("join failed once");
          }
          return { log: "join" };
        })
        .addNode("loop", (state) => ({ count: state.count + 1, log: `loop ${state.count}` }))
        .addEdge(START, "a")
        .addEdge("a", "b")
        .addEdge("a", "c")
        .addEdge("b", "join")
        .addEdge("c", "join")
        .addEdge("join", "loop")
        .addConditionalEdges("loop", (state) => (state.count < 5 ? "loop" : END), ["loop", END]);
      const app = graph.compile({ checkpointer: new MemorySaver(), ...policy });
      await expect(app.invoke({ log: "go" }, thread("same"))).rejects.toThrow();
      await app.invoke(null, thread("same"));
      await app.invoke({ log: "again" }, thread("same"));
      histories.push(await collect(app.getStateHistory(thread("same"))));
    }
    const comparable = (history: StateSnapshot[]) =>
      history.map(({ values, next, status, checkpoint }) => ({
        values,
        next,
        status,
        seq: checkpoint?.seq,
        source: checkpoint?.source,
        node: checkpoint?.node,
      }));
    expect(histories[0]!.length).toBeGreaterThan(15);
    for (const history of histories.slice(1)) {
      expect(comparable(history)).toEqual(comparable(histories[0]!));
    }
  });

  it("streams a 300-checkpoint interval newest first exactly as a snapshot at every checkpoint reads it", async () => {
    const histories: [number | undefined, unknown, unknown][][] = [];
    for (const snapshotRatio of [Number.POSITIVE_INFINITY, 0]) {
      const { graph } = loopGraph(300, -1);
      const app = graph.compile({ checkpointer: new MemorySaver(), snapshotRatio, stepLimit: 400 });
      await app.invoke({ log: "go" }, thread("long-interval"));
      const history = await collect(app.getStateHistory(thread("long-interval")));
      histories.push(
        history.map(({ values, next, checkpoint }) => [checkpoint?.seq, values, next]),
      );
    }
    expect(histories[0]).toHaveLength(301);
    expect(histories[0]!.map(([seq]) => seq)).toEqual(
      Array.from({ length: 301 }, (_, index) => 300 - index),
    );
    expect(histories[0]).toEqual(histories[1]);
  });

  it("keeps checkpoints the same size at step 10 and at step 2,000 of a run", async () => {
    const saver = new MemorySaver();
    const { graph } = loopGraph(2_000, -1);
    const app = graph.compile({ checkpointer: saver, stepLimit: 2_000 });
    await app.invoke({ count: 0 }, thread("sizes"));
    const sizes = saver.checkpointBytes("sizes");
    expect(sizes[1_999]! / sizes[10]!).toBeLessThan(1.1);
  });
});

describe("time travel", () => {
  it("reads and continues the thread from an older checkpoint", async () => {
    const saver = new MemorySaver();
    const { graph } = loopGraph(6, -1);
    const app = graph.compile({
      checkpointer: saver,
      snapshotEvery: 4,
      snapshotRatio: Number.POSITIVE_INFINITY,
    });
    await app.invoke({ log: "go" }, thread("tt"));
    const history = await collect(app.getStateHistory(thread("tt")));
    const old = history[3]!;
    const at = { configurable: { thread_id: "tt", checkpoint_id: old.checkpoint!.id } };
    expect(await app.getState(at)).toEqual(old);
    expect(await collect(app.getStateHistory(at))).toEqual(history.slice(3));

    await app.invoke({ log: "fork" }, at);
    const latest = await saver.getLatest("tt");
    const forkedFirst = await saver.get("tt", `${history[0]!.checkpoint!.id}`);
    expect(forkedFirst?.seq).toBe(6);
    const firstOfFork = (
      await collect(saver.list("tt", { beforeSeq: 8, limit: 1 }))
    )[0] as Checkpoint;
    expect(firstOfFork.parentId).toBe(old.checkpoint!.id);
    expect(firstOfFork.snapshot?.values).toMatchObject({ log: ["go", "fork"], count: 3 });
    expect((await app.getState(thread("tt"))).values.count).toBe(6);
    expect(latest?.seq).toBeGreaterThan(6);
  });

  it("names the checkpoint it cannot find", async () => {
    const app = loopGraph(2, -1).graph.compile({ checkpointer: new MemorySaver() });
    await app.invoke({}, thread("tt"));
    const config = { configurable: { thread_id: "tt", checkpoint_id: "nope" } };
    await expect(app.getState(config)).rejects.toSatisfy(
      (error: unknown) =>
        CheckpointNotFoundError.isInstance(error) && error.checkpointId === "nope",
    );
    await expect(app.invoke(null, config)).rejects.toSatisfy(CheckpointNotFoundError.isInstance);
  });
});

describe("run identity", () => {
  it("records run_id and checkpointMetadata on every checkpoint, keeping the id on resume", async () => {
    const saver = new MemorySaver();
    const { graph } = loopGraph(3, 1);
    const app = graph.compile({ checkpointer: saver });
    const config = {
      configurable: { thread_id: "id", run_id: "run-42", user_id: "u-1" },
      checkpointMetadata: { worker: "w-1", user_id: "spoofed" },
    };
    await expect(app.invoke({}, config)).rejects.toThrow();
    await app.invoke(null, {
      ...config,
      configurable: { ...config.configurable, run_id: "other" },
    });
    const stored = await collect(saver.list("id"));
    expect(stored.length).toBeGreaterThan(3);
    for (const checkpoint of stored) {
      expect(checkpoint.runId).toBe("run-42");
      expect(checkpoint.metadata).toEqual({ worker: "w-1", user_id: "u-1" });
    }
    const snapshot = await app.getState(thread("id"));
    expect(snapshot.checkpoint).toMatchObject({ runId: "run-42", metadata: { worker: "w-1" } });
    await app.invoke({}, thread("id"));
    const fresh = await saver.getLatest("id");
    expect(fresh?.runId).not.toBe("run-42");
    expect(fresh?.metadata).toEqual({});
  });

  it("refuses a snapshot interval below 1 and a negative snapshot ratio", () => {
    const { graph } = loopGraph(2, -1);
    for (const snapshotEvery of [0, -1, 1.5, Number.NaN]) {
      expect(() => graph.compile({ snapshotEvery })).toThrow(
        expect.toSatisfy(ConfigurationError.isInstance),
      );
    }
    for (const snapshotRatio of [-1, Number.NaN]) {
      expect(() => graph.compile({ snapshotRatio })).toThrow(
        expect.toSatisfy(ConfigurationError.isInstance),
      );
    }
    for (const options of [
      { snapshotEvery: Number.POSITIVE_INFINITY },
      { snapshotRatio: 0 },
      { snapshotRatio: Number.POSITIVE_INFINITY },
    ]) {
      expect(() => graph.compile(options)).not.toThrow();
    }
  });
});

describe("checkpoint format version 1", () => {
  const fixture = JSON.parse(
    readFileSync(new URL("./fixtures/v1-thread.json", import.meta.url), "utf8"),
  ) as {
    checkpoints: CheckpointV1[];
    expectedHistory: { seq: number; values: unknown; next: string[]; status: string }[];
  };

  async function legacyThread() {
    const saver = new MemorySaver();
    for (const checkpoint of fixture.checkpoints) await saver.put(checkpoint);
    const graph = new FlowStateGraph(State)
      .addNode("plan", () => ({ log: "plan" }))
      .addNode("loop", (state) => ({ log: `loop${state.count}`, count: state.count + 1 }))
      .addNode("review", () => ({ log: "review" }))
      .addEdge(START, "plan")
      .addEdge("plan", "loop")
      .addConditionalEdges("loop", (state) => (state.count < 3 ? "loop" : "review"), [
        "loop",
        "review",
      ])
      .addEdge("review", END);
    return { saver, app: graph.compile({ checkpointer: saver, snapshotEvery: 3 }) };
  }

  const summary = (history: StateSnapshot[]) =>
    history.map(({ checkpoint, values, next, status }) => ({
      seq: checkpoint?.seq,
      values,
      next,
      status,
    }));

  it("reads a version-1 thread exactly as the version-1 engine did", async () => {
    const { app } = await legacyThread();
    const config = thread("legacy");
    expect(summary(await collect(app.getStateHistory(config)))).toEqual(fixture.expectedHistory);
    expect((await app.getState(config)).values).toEqual(fixture.expectedHistory[0]!.values);
  });

  it("continues a version-1 thread in version 2, starting with a snapshot", async () => {
    const { app, saver } = await legacyThread();
    const config = thread("legacy");
    const final = await app.invoke({ log: "v2", count: 0 }, config);
    const legacyLog = (fixture.expectedHistory[0]!.values as { log: string[] }).log;
    expect(final.log.slice(0, legacyLog.length + 1)).toEqual([...legacyLog, "v2"]);
    const v2 = (await collect(saver.list("legacy"))).filter((c) => c.version === 2);
    expect(v2.at(-1)?.snapshot).toBeDefined();
    const history = summary(await collect(app.getStateHistory(config)));
    expect(history.slice(v2.length)).toEqual(fixture.expectedHistory);
    expect(history[0]?.values).toEqual(final);
  });
});

describe("a damaged thread", () => {
  it("says which checkpoint cannot be read instead of inventing a state", async () => {
    const saver = new MemorySaver();
    const { snapshot: _dropped, ...withoutSnapshot } = checkpointAt("bad", 0);
    await saver.put(withoutSnapshot);
    await saver.put(checkpointAt("bad", 1));
    const app = loopGraph(2, -1).graph.compile({ checkpointer: saver });
    await expect(app.getState(thread("bad"))).rejects.toSatisfy(
      (error: unknown) => CorruptThreadError.isInstance(error) && error.seq === 0,
    );
    await expect(app.invoke({}, thread("bad"))).rejects.toSatisfy(CorruptThreadError.isInstance);
    expect((await saver.getLatest("bad"))?.seq).toBe(1);
  });
});

async function* take<T>(items: AsyncIterable<T>, count: number): AsyncGenerator<T> {
  if (count <= 0) return;
  let taken = 0;
  for await (const item of items) {
    yield item;
    if (++taken >= count) return;
  }
}
