import { expect, it } from "vitest";
import { z } from "zod";
import { NodeExecutionError } from "../error/node-execution-error.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { resume } from "../run/interrupt.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState } from "../state/state-definition.js";
import { type ConformanceContext, collect } from "./conformance-context.js";

const State = defineState({
  log: reducer(z.array(z.string()), appendReducer, () => []),
  count: z.number().default(0),
  result: z.string().optional(),
});

/** The graph end to end on the saver: fail, resume, snapshots, history and time travel. */
export function describeGraphOnCheckpointer(context: ConformanceContext): void {
  it("lets a graph fail, resume without re-running finished nodes, and report its state", async () => {
    const saver = await context.checkpointer();
    const runs: string[] = [];
    let failNext = true;
    const graph = new FlowStateGraph(State)
      .addNode("first", () => {
        runs.push("first");
        return { log: "first" };
      })
      .addNode("second", () => {
        runs.push("second");
        if (failNext) {
          failNext = false;
          throw new Error("transient");
        }
        return { log: "second", result: "ok" };
      })
      .addEdge(START, "first")
      .addEdge("first", "second")
      .addEdge("second", END);
    const app = graph.compile({ checkpointer: saver });
    const config = { configurable: { thread_id: context.threadId("graph") } };

    await expect(app.invoke({ log: "input" }, config)).rejects.toSatisfy(
      NodeExecutionError.isInstance,
    );
    const failed = await app.getState(config);
    expect(failed.status).toBe("failed");
    expect(failed.next).toEqual(["second"]);

    const final = await app.invoke(null, config);
    expect(runs).toEqual(["first", "second", "second"]);
    expect(final).toEqual({ log: ["input", "first", "second"], count: 0, result: "ok" });
    expect((await app.getState(config)).status).toBe("done");
    const history = await collect(app.getStateHistory(config));
    expect(history[0]?.values).toEqual(final);
    expect(history.at(-1)?.values).toEqual({ log: ["input"], count: 0 });
  });

  it("keeps an interrupted run's questions and answers, and resumes it in a new graph", async () => {
    const saver = await context.checkpointer();
    const runs: string[] = [];
    const build = () =>
      new FlowStateGraph(State)
        .addNode("first", () => {
          runs.push("first");
          return { log: "first" };
        })
        .addNode("ask", (_state, { interrupt }) => {
          runs.push("ask");
          const answers = [interrupt<{ ok: boolean }>({ q: "one" }), interrupt<number>("two")];
          return { log: "asked", result: JSON.stringify(answers) };
        })
        .addEdge(START, "first")
        .addEdge("first", "ask")
        .addEdge("ask", END)
        .compile({ checkpointer: saver, snapshotEvery: 2 });
    const thread = context.threadId("interrupt");
    const config = { configurable: { thread_id: thread } };

    await build().invoke({ log: "input" }, config);
    await build().invoke(resume({ ok: true }), config);
    const stored = await saver.getLatest(thread);
    expect(stored).toMatchObject({
      status: "interrupted",
      source: "stop",
      interrupts: [{ node: "ask", value: "two" }],
      answers: { ask: [{ ok: true }] },
    });
    const paused = await build().getState(config);
    expect(paused.status).toBe("interrupted");
    expect(paused.interrupts).toEqual([{ id: expect.any(String), node: "ask", value: "two" }]);
    expect(stored?.interrupts?.[0]?.id).toBe(paused.interrupts?.[0]?.id);

    const final = await build().invoke(resume(2), config);
    expect(final.result).toBe('[{"ok":true},2]');
    expect(runs).toEqual(["first", "ask", "ask", "ask"]);
    const history = await collect(build().getStateHistory(config));
    expect(history.map((snapshot) => snapshot.status)).toContain("interrupted");
  });

  it("keeps a state update and a fork, and a new graph continues from them", async () => {
    const saver = await context.checkpointer();
    const runs: string[] = [];
    const build = () =>
      new FlowStateGraph(State)
        .addNode("first", () => {
          runs.push("first");
          return { log: "first" };
        })
        .addNode("second", (state) => {
          runs.push("second");
          return { log: "second", result: `count ${state.count}` };
        })
        .addEdge(START, "first")
        .addEdge("first", "second")
        .addEdge("second", END)
        .compile({ checkpointer: saver });
    const thread = context.threadId("update");
    const config = { configurable: { thread_id: thread } };
    await build().invoke({ log: "input" }, config);
    const done = await build().getState(config);

    const written = await build().updateState(config, { count: 5 }, { asNode: "first" });
    expect(await saver.getLatest(thread)).toMatchObject({
      id: written.id,
      source: "update",
      node: "first",
      writes: { count: 5 },
    });
    expect(await build().getState(config)).toMatchObject({ status: "running", next: ["second"] });
    const final = await build().invoke(null, config);
    expect(final.result).toBe("count 5");
    expect(runs).toEqual(["first", "second", "second"]);

    const fork = { configurable: { thread_id: thread, checkpoint_id: done.checkpoint!.id } };
    const forked = await build().updateState(fork, { log: "note" });
    expect(forked.parentId).toBe(done.checkpoint!.id);
    expect((await build().getState(config)).values).toEqual({
      ...done.values,
      log: [...done.values.log, "note"],
    });
  });

  it("reads a long loop back through its snapshots, and travels back in time", async () => {
    const saver = await context.checkpointer();
    const graph = new FlowStateGraph(State)
      .addNode("step", (state) => ({ log: `step ${state.count}`, count: state.count + 1 }))
      .addEdge(START, "step")
      .addConditionalEdges("step", (state) => (state.count < 12 ? "step" : END), ["step", END]);
    const app = graph.compile({
      checkpointer: saver,
      snapshotEvery: 4,
      snapshotRatio: Number.POSITIVE_INFINITY,
      stepLimit: 50,
    });
    const thread = context.threadId("snapshots");
    const config = { configurable: { thread_id: thread } };
    await app.invoke({ log: "go" }, config);

    const history = await collect(app.getStateHistory(config));
    expect(history.map((snapshot) => snapshot.checkpoint?.seq)).toEqual(
      Array.from({ length: 13 }, (_, index) => 12 - index),
    );
    expect(history.map((snapshot) => snapshot.values.count)).toEqual(
      Array.from({ length: 13 }, (_, index) => 12 - index),
    );
    const stored = await collect(saver.list(thread));
    expect(stored.filter((checkpoint) => "snapshot" in checkpoint).length).toBe(4);

    const back = history[7]!;
    const travelled = { configurable: { thread_id: thread, checkpoint_id: back.checkpoint!.id } };
    expect(await app.getState(travelled)).toEqual(back);
    const forked = await app.invoke({ log: "again" }, travelled);
    expect(forked.count).toBe(12);
    expect(forked.log.slice(0, back.values.log.length)).toEqual(back.values.log);
    expect((await app.getState(config)).values).toEqual(forked);
    expect((await saver.getLatest(thread))?.seq).toBeGreaterThan(12);
  });

  it("never answers getState from a stale cache: another client's run, a rewritten thread", async () => {
    const saver = await context.checkpointer();
    const other = await context.secondClient(saver);
    const graph = new FlowStateGraph(State)
      .addNode("step", (state) => ({ log: `step ${state.count}`, count: state.count + 1 }))
      .addEdge(START, "step")
      .addEdge("step", END);
    const reader = graph.compile({ checkpointer: saver });
    const writer = graph.compile({ checkpointer: other });
    const config = { configurable: { thread_id: context.threadId("cache") } };

    await writer.invoke({ log: "first" }, config);
    const first = await reader.getState(config);
    expect(await reader.getState(config)).toEqual(first);
    expect(first.values).toEqual({ log: ["first", "step 0"], count: 1 });

    // Another client (another process, for a database) continues the thread.
    await writer.invoke({ log: "second" }, config);
    const second = await reader.getState(config);
    expect(second.values).toEqual({ log: ["first", "step 0", "second", "step 1"], count: 2 });
    expect(second.checkpoint!.seq).toBeGreaterThan(first.checkpoint!.seq);

    // Deleted and written again to the very same seq: a different checkpoint, not the cached one.
    await other.deleteThread(config.configurable.thread_id);
    await writer.invoke({ log: "a" }, config);
    await writer.invoke({ log: "b" }, config);
    const rewritten = await reader.getState(config);
    expect(rewritten.checkpoint!.seq).toBe(second.checkpoint!.seq);
    expect(rewritten.checkpoint!.id).not.toBe(second.checkpoint!.id);
    expect(rewritten.values).toEqual({ log: ["a", "step 0", "b", "step 1"], count: 2 });

    // Deleted and written past the kept checkpoint's seq: the log no longer holds that one there.
    await other.deleteThread(config.configurable.thread_id);
    for (const log of ["x", "y", "z"]) await writer.invoke({ log }, config);
    const longer = await reader.getState(config);
    expect(longer.checkpoint!.seq).toBeGreaterThan(rewritten.checkpoint!.seq);
    expect(longer.values).toEqual({
      log: ["x", "step 0", "y", "step 1", "z", "step 2"],
      count: 3,
    });

    await other.deleteThread(config.configurable.thread_id);
    expect((await reader.getState(config)).status).toBe("new");
  });

  it("gives getState values that cannot be changed, so no caller alters what the next reads", async () => {
    const saver = await context.checkpointer();
    const app = new FlowStateGraph(State)
      .addNode("step", () => ({ log: "step" }))
      .addEdge(START, "step")
      .addEdge("step", END)
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: context.threadId("frozen") } };
    await app.invoke({ log: "input" }, config);
    const state = await app.getState(config);
    expect(() => (state.values.log as string[]).push("planted")).toThrow(TypeError);
    expect(() => Object.assign(state.checkpoint!.metadata, { planted: true })).toThrow(TypeError);
    expect((await app.getState(config)).values.log).toEqual(["input", "step"]);
  });
}
