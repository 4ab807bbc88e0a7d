import { AbortedError, ConfigurationError } from "@framework/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Checkpoint } from "../checkpoint/checkpoint.js";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { DEFAULT_SNAPSHOT_RATIO } from "../checkpoint/snapshot-policy.js";
import { collect } from "../conformance/conformance-context.js";
import { NodeExecutionError } from "../error/node-execution-error.js";
import { StepLimitError } from "../error/step-limit-error.js";
import { END, START } from "../node/endpoints.js";
import { createGate } from "../run/test-gate.js";
import { Timeline } from "../run/test-timeline.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState } from "../state/state-definition.js";
import { FlowStateGraph } from "./flow-state-graph.js";

const State = defineState({
  log: reducer(z.array(z.string()), appendReducer, () => []),
  x: z.string().optional(),
  a: z.string().optional(),
  b: z.string().optional(),
  s: z.string().optional(),
  c: z.string().optional(),
});

const thread = (id: string) => ({ configurable: { thread_id: id } });

function untilAborted(signal: AbortSignal): Promise<void> {
  const gate = createGate();
  if (signal.aborted) gate.open();
  signal.addEventListener("abort", () => gate.open(), { once: true });
  return gate.wait();
}

describe("checkpoints and resuming", () => {
  it("resumes a failed run without re-running finished nodes", async () => {
    // START -> x -> {a, b, s} -> c: a fails once after b ended, while s is still running.
    const timeline = new Timeline();
    const bEnded = createGate();
    const sStarted = createGate();
    let attempt = 0;
    const sRuns: { visit: number; idempotencyKey: string }[] = [];
    const abortedRuns: string[] = [];
    const app = new FlowStateGraph(State)
      .addNode("x", () => {
        timeline.mark("x");
        return { x: "X", log: "x" };
      })
      .addNode("a", async () => {
        timeline.mark("a");
        attempt += 1;
        if (attempt === 1) {
          await bEnded.wait();
          await sStarted.wait();
          throw new Error("flaky upstream");
        }
        return { a: "A", log: "a" };
      })
      .addNode("b", () => {
        timeline.mark("b");
        bEnded.open();
        return { b: "B", log: "b" };
      })
      .addNode("s", async (_state, { signal, visit, idempotencyKey }) => {
        timeline.mark("s");
        sRuns.push({ visit, idempotencyKey });
        if (sRuns.length === 1) {
          sStarted.open();
          await untilAborted(signal);
          abortedRuns.push(`s aborted: ${signal.aborted}`);
          return { s: "never merged" };
        }
        return { s: "S", log: "s" };
      })
      .addNode("c", (state) => {
        timeline.mark("c");
        return { c: [state.x, state.a, state.b, state.s].join(""), log: "c" };
      })
      .addFlow([START.to("x"), ...["a", "b", "s"].map((n) => START.to("x").to(n).to("c"))])
      .addEdge("c", END)
      .compile({ checkpointer: new MemorySaver() });

    const failure = await app.invoke({ log: "question" }, thread("r1")).catch((e: unknown) => e);
    expect(NodeExecutionError.isInstance(failure)).toBe(true);
    expect((failure as NodeExecutionError).node).toBe("a");
    expect(abortedRuns).toEqual(["s aborted: true"]);

    const stopped = await app.getState(thread("r1"));
    expect(stopped.status).toBe("failed");
    // c was triggered by b and still waits for a and s.
    expect([...stopped.next].sort()).toEqual(["a", "c", "s"]);
    expect(stopped.error).toMatchObject({ name: "NodeExecutionError", node: "a" });
    expect(stopped.values).toMatchObject({ x: "X", b: "B", log: ["question", "x", "b"] });

    const final = await app.invoke(null, thread("r1"));

    expect(timeline.count("x")).toBe(1);
    expect(timeline.count("b")).toBe(1);
    expect(timeline.count("a")).toBe(2);
    expect(timeline.count("s")).toBe(2);
    // s never finished its first visit: the re-run is that visit, with the same key.
    expect(sRuns.map((run) => run.visit)).toEqual([1, 1]);
    expect(sRuns[1]!.idempotencyKey).toBe(sRuns[0]!.idempotencyKey);
    expect(timeline.count("c")).toBe(1);
    expect(final.c).toBe("XABS");
    expect(final.log).toHaveLength(6);
    expect(final.log.slice(0, 3)).toEqual(["question", "x", "b"]);
    expect((await app.getState(thread("r1"))).status).toBe("done");
  });

  it("cancels through the signal, lets running nodes see it, and resumes later", async () => {
    const timeline = new Timeline();
    const started = [createGate(), createGate()];
    const seen: string[] = [];
    let cancelled = true;
    const worker =
      (name: string, index: number) => async (_: unknown, ctx: { signal: AbortSignal }) => {
        timeline.mark(name);
        if (cancelled) {
          started[index]!.open();
          await untilAborted(ctx.signal);
          seen.push(
            `${name} saw ${AbortedError.isInstance(ctx.signal.reason) ? "AbortedError" : "?"}`,
          );
        }
        return { [name]: name.toUpperCase(), log: name };
      };
    const app = new FlowStateGraph(State)
      .addNode("a", worker("a", 0))
      .addNode("b", worker("b", 1))
      .addNode("c", () => {
        timeline.mark("c");
        return { c: "C" };
      })
      .addFlow([START.to("a").to("c"), START.to("b").to("c").to(END)])
      .compile({ checkpointer: new MemorySaver() });

    const controller = new AbortController();
    const running = app.invoke({}, { ...thread("cancel"), signal: controller.signal });
    await Promise.all(started.map((gate) => gate.wait()));
    controller.abort(new Error("user pressed stop"));
    const error = await running.catch((e: unknown) => e);

    expect(AbortedError.isInstance(error)).toBe(true);
    expect((error as AbortedError).cause).toEqual(new Error("user pressed stop"));
    expect(seen.sort()).toEqual(["a saw AbortedError", "b saw AbortedError"]);
    const stopped = await app.getState(thread("cancel"));
    expect(stopped.status).toBe("cancelled");
    expect([...stopped.next].sort()).toEqual(["a", "b"]);

    cancelled = false;
    const final = await app.invoke(null, thread("cancel"));
    expect(final).toMatchObject({ a: "A", b: "B", c: "C" });
    expect(timeline.count("c")).toBe(1);
  });

  it("rejects at once, saving nothing, when the signal has already fired", async () => {
    const saver = new MemorySaver();
    const app = new FlowStateGraph(State)
      .addNode("a", () => ({ a: "A" }))
      .addFlow([START.to("a").to(END)])
      .compile({ checkpointer: saver });
    const error = await app.invoke({}, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(await saver.getLatest("1")).toBeUndefined();
  });

  it("continues a run stopped by the step limit with a fresh budget", async () => {
    const Counter = defineState({ n: z.number().default(0) });
    const app = new FlowStateGraph(Counter)
      .addNode("inc", (state) => ({ n: state.n + 1 }))
      .addEdge(START, "inc")
      .addConditionalEdges("inc", (state) => (state.n >= 8 ? END : "inc"), ["inc", END])
      .compile({ checkpointer: new MemorySaver(), stepLimit: 5 });

    const error = await app.invoke({}, thread("limit")).catch((e: unknown) => e);
    expect(StepLimitError.isInstance(error)).toBe(true);
    expect((await app.getState(thread("limit"))).status).toBe("failed");

    expect(await app.invoke(null, thread("limit"))).toEqual({ n: 8 });
  });

  it("starts a new run on top of a finished thread's state, and does nothing on null input", async () => {
    const timeline = new Timeline();
    const app = new FlowStateGraph(State)
      .addNode("echo", (state) => {
        timeline.mark("echo");
        return { log: `echo of ${state.log.at(-1)}` };
      })
      .addFlow([START.to("echo").to(END)])
      .compile({ checkpointer: new MemorySaver() });

    await app.invoke({ log: "hi" }, thread("chat"));
    const second = await app.invoke({ log: "again" }, thread("chat"));
    expect(second.log).toEqual(["hi", "echo of hi", "again", "echo of again"]);

    const untouched = await app.invoke(null, thread("chat"));
    expect(untouched).toEqual(second);
    expect(timeline.count("echo")).toBe(2);

    const other = await app.invoke({ log: "elsewhere" }, thread("other"));
    expect(other.log).toEqual(["elsewhere", "echo of elsewhere"]);
  });

  it("starts over from START, on the saved state, when a stopped thread gets new input", async () => {
    let failFirst = true;
    const app = new FlowStateGraph(State)
      .addNode("first", () => ({ log: "first" }))
      .addNode("second", () => {
        if (failFirst) throw new Error("down");
        return { log: "second" };
      })
      .addFlow([START.to("first").to("second").to(END)])
      .compile({ checkpointer: new MemorySaver() });

    await expect(app.invoke({ log: "q1" }, thread("restart"))).rejects.toThrow(/"second"/);
    failFirst = false;
    const final = await app.invoke({ log: "q2" }, thread("restart"));

    expect(final.log).toEqual(["q1", "first", "q2", "first", "second"]);
  });

  it("uses thread 1 by default and reports state, next nodes and history newest first", async () => {
    const app = new FlowStateGraph(State)
      .addNode("one", () => ({ a: "1" }))
      .addNode("two", () => ({ b: "2" }))
      .addFlow([START.to("one").to("two").to(END)])
      .compile({ checkpointer: new MemorySaver() });

    expect(await app.getState()).toMatchObject({ threadId: "1", status: "new", next: [] });
    await app.invoke({ log: "go" }, { configurable: { user_id: "u1" } });

    const state = await app.getState({ configurable: { thread_id: 1 } });
    expect(state).toMatchObject({ threadId: "1", status: "done", next: [] });
    expect(state.values).toEqual({ log: ["go"], a: "1", b: "2" });

    const history = [];
    for await (const snapshot of app.getStateHistory()) history.push(snapshot);
    expect(history.map((h) => [h.checkpoint?.source, h.checkpoint?.node, h.next])).toEqual([
      ["node", "two", []],
      ["node", "one", ["two"]],
      ["input", undefined, ["one"]],
    ]);
    expect(history[2]?.values).toEqual({ log: ["go"] });
    expect(history[1]?.values).toEqual({ log: ["go"], a: "1" });

    const limited = [];
    for await (const snapshot of app.getStateHistory({}, { limit: 1 })) limited.push(snapshot);
    expect(limited).toHaveLength(1);
  });

  it("stores per-step changes, and a snapshot once they outweigh the last one", async () => {
    const Big = defineState({
      document: z.string().optional(),
      counter: z.number().default(0),
      notes: reducer(z.array(z.string()), appendReducer, () => []),
    });
    const steps = 300;
    const saver = new MemorySaver();
    const app = new FlowStateGraph(Big)
      .addNode("tick", (state) => ({ counter: state.counter + 1, notes: `n${state.counter}` }))
      .addEdge(START, "tick")
      .addConditionalEdges("tick", (state) => (state.counter >= steps ? END : "tick"), [
        "tick",
        END,
      ])
      .compile({ checkpointer: saver, stepLimit: steps });
    const document = "lorem ipsum ".repeat(2_000);

    const final = await app.invoke({ document }, thread("big"));

    const sizes = saver.checkpointBytes("big");
    expect(sizes).toHaveLength(steps + 1);
    const stored = (await collect(saver.list("big"))).reverse() as Checkpoint[];
    const snapshots = stored.filter((checkpoint) => checkpoint.snapshot).map(({ seq }) => seq);
    expect(snapshots[0]).toBe(0);
    expect(snapshots.length).toBeGreaterThan(1);
    for (const seq of snapshots) expect(sizes[seq]).toBeGreaterThan(document.length);
    for (const [seq, size] of sizes.entries()) {
      if (!snapshots.includes(seq)) expect(size).toBeLessThan(1_024);
    }
    // Each snapshot comes with the checkpoint that makes those since the previous one weigh
    // `ratio` times that snapshot: not before (snapshots stay few), not after (reads stay short).
    const sum = (from: number, to: number) => sizes.slice(from, to).reduce((a, b) => a + b, 0);
    for (const [index, seq] of snapshots.entries()) {
      const next = snapshots[index + 1];
      if (next === undefined) continue;
      const weight = DEFAULT_SNAPSHOT_RATIO * sizes[seq]!;
      expect(sum(seq + 1, next)).toBeLessThan(weight);
      expect(sum(seq + 1, next) + 1_024).toBeGreaterThanOrEqual(weight);
    }
    expect(final.notes).toHaveLength(steps);
    const state = await app.getState(thread("big"));
    expect(state.values.document).toBe(document);
    expect(state.values.counter).toBe(steps);
    expect(state.values.notes).toEqual(final.notes);
  });

  it("stores a wide fan-out's snapshots in linear bytes, where a fixed count grows quadratic", async () => {
    const Fan = defineState({ results: reducer(z.array(z.number()), appendReducer, () => []) });
    const stored = async (
      width: number,
      options: { snapshotRatio?: number; snapshotEvery?: number } = {},
    ) => {
      const graph = new FlowStateGraph(Fan).addNode("join", () => ({}));
      for (let index = 0; index < width; index++) {
        graph
          .addNode(`f${index}`, () => ({ results: index }))
          .addEdge(START, `f${index}`)
          .addEdge(`f${index}`, "join");
      }
      graph.addEdge("join", END);
      const saver = new MemorySaver();
      const app = graph.compile({ checkpointer: saver, stepLimit: width + 1, ...options });
      expect((await app.invoke({}, thread("fan"))).results).toHaveLength(width);
      const sizes = saver.checkpointBytes("fan");
      const snapshots = (await collect(saver.list("fan")))
        .filter((checkpoint) => (checkpoint as Checkpoint).snapshot)
        .map((checkpoint) => sizes[checkpoint.seq]!);
      const snapshotBytes = snapshots.reduce((a, b) => a + b, 0);
      const deltaBytes = sizes.reduce((a, b) => a + b, 0) - snapshotBytes;
      return { snapshots, snapshotBytes, deltaBytes };
    };

    const narrow = await stored(1_000);
    const wide = await stored(4_000);
    // Every snapshot but the newest is paid for by the checkpoints after it (each with up to
    // a kilobyte of its own besides the snapshot).
    const paidFor = wide.snapshotBytes - Math.max(...wide.snapshots);
    expect(paidFor).toBeLessThanOrEqual(
      (wide.deltaBytes + 1_024 * wide.snapshots.length) / DEFAULT_SNAPSHOT_RATIO,
    );
    expect(wide.snapshotBytes / narrow.snapshotBytes).toBeLessThan(5);
    const byCount = { snapshotRatio: Number.POSITIVE_INFINITY, snapshotEvery: 100 };
    const countedNarrow = await stored(1_000, byCount);
    const countedWide = await stored(4_000, byCount);
    expect(countedWide.snapshotBytes / countedNarrow.snapshotBytes).toBeGreaterThan(10);
  });

  it("carries the snapshot accounting across runs and processes: short turns do not store the state each turn", async () => {
    const Chat = defineState({
      document: z.string().optional(),
      turns: reducer(z.array(z.string()), appendReducer, () => []),
    });
    const saver = new MemorySaver();
    const compile = () =>
      new FlowStateGraph(Chat)
        .addNode("reply", (state) => ({ turns: `reply ${state.turns.length}` }))
        .addEdge(START, "reply")
        .addEdge("reply", END)
        .compile({ checkpointer: saver });
    const document = "lorem ipsum ".repeat(2_000);
    const kept = compile();
    await kept.invoke({ document }, thread("chat"));
    // Every other turn through a graph compiled afresh, as another process would run it: the
    // weights come from the newest checkpoint, not from the graph's memory.
    for (let turn = 0; turn < 40; turn++) {
      const app = turn % 2 === 0 ? kept : compile();
      await app.invoke({ turns: `ask ${turn}` }, thread("chat"));
    }
    const stored = (await collect(saver.list("chat"))) as Checkpoint[];
    const snapshots = stored.filter((checkpoint) => checkpoint.snapshot);
    // 81 small checkpoints weigh less than twice the 24 kB document: the first stays the only one.
    expect(stored).toHaveLength(82);
    expect(snapshots.map((checkpoint) => checkpoint.seq)).toEqual([0]);
    expect((await compile().getState(thread("chat"))).values.turns).toHaveLength(81);
  });

  it("cancels the run when a stream consumer stops early", async () => {
    let holdTwo = true;
    const app = new FlowStateGraph(State)
      .addNode("one", () => ({ a: "1" }))
      .addNode("two", async (_state, { signal }) => {
        if (holdTwo) await untilAborted(signal);
        return { b: "2" };
      })
      .addFlow([START.to("one").to("two").to(END)])
      .compile({ checkpointer: new MemorySaver() });

    for await (const event of app.stream({}, thread("early"))) {
      if (event.type === "node_end") break;
    }

    const state = await app.getState(thread("early"));
    expect(state.status).toBe("cancelled");
    holdTwo = false;
    expect(await app.invoke(null, thread("early"))).toMatchObject({ a: "1", b: "2" });
  });

  it("needs a checkpointer for getState", async () => {
    const app = new FlowStateGraph(State)
      .addNode("one", () => ({}))
      .addFlow([START.to("one").to(END)])
      .compile();
    await expect(app.getState()).rejects.toSatisfy(ConfigurationError.isInstance);
  });

  it("leaves the thread untouched when the input fails validation", async () => {
    const saver = new MemorySaver();
    const app = new FlowStateGraph(State)
      .addNode("one", () => ({}))
      .addFlow([START.to("one").to(END)])
      .compile({ checkpointer: saver });
    await expect(app.invoke({ a: 42 } as never)).rejects.toThrow(/graph input.*"a"/);
    expect(await saver.getLatest("1")).toBeUndefined();
  });
});
