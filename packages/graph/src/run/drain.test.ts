import { AbortedError } from "@framework/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState } from "../state/state-definition.js";
import { resume } from "./interrupt.js";
import { createGate, type Gate } from "./test-gate.js";

const State = defineState({ log: reducer(z.array(z.string()), appendReducer, () => []) });

const config = (drain: AbortController, signal?: AbortController) => ({
  configurable: { thread_id: "drain" },
  drainSignal: drain.signal,
  ...(signal ? { signal: signal.signal } : {}),
});

/** START -> {slow, fast} -> join -> END; `slow` waits for its gate. Counts node runs. */
function fanIn(slowGate: Gate, started: Gate) {
  const runs: string[] = [];
  const app = new FlowStateGraph(State)
    .addNode("slow", async (_state, { signal }) => {
      runs.push("slow");
      started.open();
      await slowGate.wait();
      signal.throwIfAborted();
      return { log: "slow" };
    })
    .addNode("fast", () => {
      runs.push("fast");
      return { log: "fast" };
    })
    .addNode("join", () => {
      runs.push("join");
      return { log: "join" };
    })
    .addFlow([START.to("slow").to("join").to(END), START.to("fast").to("join")])
    .compile({ checkpointer: new MemorySaver() });
  return { app, runs };
}

describe("drainSignal", () => {
  it("lets running nodes end and be checkpointed, starts none, and resumes from there", async () => {
    const slowGate = createGate();
    const started = createGate();
    const { app, runs } = fanIn(slowGate, started);
    const drain = new AbortController();

    const run = app.invoke({ log: "go" }, config(drain));
    await started.wait();
    drain.abort("shutting down");
    slowGate.open();
    const error = await run.catch((caught: unknown) => caught);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect((error as AbortedError).cause).toBe("shutting down");

    const stopped = await app.getState(config(new AbortController()));
    expect(stopped.status).toBe("cancelled");
    expect(stopped.next).toEqual(["join"]);
    expect([...stopped.values.log].sort()).toEqual(["fast", "go", "slow"]);
    expect(runs.sort()).toEqual(["fast", "slow"]);

    const final = await app.invoke(null, config(new AbortController()));
    expect(final.log.at(-1)).toBe("join");
    expect(runs.sort()).toEqual(["fast", "join", "slow"]);
  });

  it("stops before the first node when drained before it starts, keeping the input", async () => {
    const { app, runs } = fanIn(createGate(), createGate());
    const drain = new AbortController();
    drain.abort();
    await expect(app.invoke({ log: "go" }, config(drain))).rejects.toSatisfy(
      AbortedError.isInstance,
    );
    expect(runs).toEqual([]);
    const stopped = await app.getState(config(new AbortController()));
    expect(stopped).toMatchObject({ status: "cancelled", values: { log: ["go"] } });
    expect([...stopped.next].sort()).toEqual(["fast", "slow"]);
  });

  it("gives way to the abort signal for a node that does not end in time", async () => {
    const slowGate = createGate();
    const started = createGate();
    const { app, runs } = fanIn(slowGate, started);
    const drain = new AbortController();
    const abort = new AbortController();
    const run = app.invoke({ log: "go" }, config(drain, abort));
    await started.wait();
    await expect.poll(async () => (await app.getState(config(drain))).values.log).toContain("fast");
    drain.abort();
    abort.abort("grace period over");
    slowGate.open();
    await expect(run).rejects.toSatisfy(AbortedError.isInstance);
    const stopped = await app.getState(config(new AbortController()));
    expect(stopped).toMatchObject({ status: "cancelled", next: ["slow", "join"] });
    await app.invoke(null, config(new AbortController()));
    expect(runs.sort()).toEqual(["fast", "join", "slow", "slow"]);
  });

  it("ends as interrupted when a running node asks a question meanwhile", async () => {
    const asked = createGate();
    const app = new FlowStateGraph(State)
      .addNode("ask", (_state, context) => {
        asked.open();
        return { log: String(context.interrupt("?")) };
      })
      .addFlow([START.to("ask").to(END)])
      .compile({ checkpointer: new MemorySaver() });
    const drain = new AbortController();
    const run = app.invoke({ log: "go" }, config(drain));
    await asked.wait();
    drain.abort();
    await run;
    expect((await app.getState(config(drain))).status).toBe("interrupted");
  });
});

describe("a stopped run that had answers", () => {
  it("hands a node its answer back when the run continues, instead of asking again", async () => {
    const questions: string[] = [];
    let block = true;
    const app = new FlowStateGraph(State)
      .addNode("ask", async (_state, context) => {
        const answer = context.interrupt<string>("Which?");
        questions.push(`answered ${answer}`);
        if (block)
          await new Promise((_, reject) => context.signal.addEventListener("abort", reject));
        return { log: answer };
      })
      .addFlow([START.to("ask").to(END)])
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "answers" } };
    await app.invoke({ log: "go" }, thread);

    const cancel = new AbortController();
    const resumed = app.invoke(resume("B"), { ...thread, signal: cancel.signal });
    await expect.poll(() => questions.length).toBe(1);
    cancel.abort();
    await expect(resumed).rejects.toSatisfy(AbortedError.isInstance);
    expect((await app.getState(thread)).status).toBe("cancelled");

    block = false;
    const final = await app.invoke(null, thread);
    expect(final.log).toEqual(["go", "B"]);
    expect(questions).toEqual(["answered B", "answered B"]);
  });
});
