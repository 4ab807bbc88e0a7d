import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { NotInterruptedError } from "../error/not-interrupted-error.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState } from "../state/state-definition.js";
import { resume } from "./interrupt.js";

const State = defineState({
  log: reducer(z.array(z.string()), appendReducer, () => []),
});

/** draft -> review (asks) -> publish, counting how often each node runs. */
function reviewGraph(review: (ask: <R>(value: unknown) => R) => string) {
  const runs: string[] = [];
  const graph = new FlowStateGraph(State)
    .addNode("draft", () => {
      runs.push("draft");
      return { log: "drafted" };
    })
    .addNode("review", (_state, context) => {
      runs.push("review");
      return { log: review((value) => context.interrupt(value)) };
    })
    .addNode("publish", () => {
      runs.push("publish");
      return { log: "published" };
    })
    .addEdge(START, "draft")
    .addEdge("draft", "review")
    .addEdge("review", "publish")
    .addEdge("publish", END);
  return { runs, app: graph.compile({ checkpointer: new MemorySaver() }) };
}

const config = { configurable: { thread_id: "review" } };

describe("context.interrupt", () => {
  it("pauses the run, reports the question, and resumes with the answer", async () => {
    const { runs, app } = reviewGraph((ask) => `approved: ${ask<boolean>("Publish?")}`);

    const paused = await app.invoke({ log: "start" }, config);
    expect(paused.log).toEqual(["start", "drafted"]);
    const state = await app.getState(config);
    expect(state.status).toBe("interrupted");
    expect(state.interrupts).toEqual([{ node: "review", value: "Publish?" }]);
    expect(state.next).toEqual(["review"]);

    const final = await app.invoke(resume(true), config);
    expect(final.log).toEqual(["start", "drafted", "approved: true", "published"]);
    // draft finished before the interrupt and does not run again; review runs once more.
    expect(runs).toEqual(["draft", "review", "review", "publish"]);
    const done = await app.getState(config);
    expect(done.status).toBe("done");
    expect(done).not.toHaveProperty("interrupts");
  });

  it("answers several interrupts of one node in order, one resume each", async () => {
    const { app } = reviewGraph((ask) => `${ask<string>("Title?")} by ${ask<string>("Author?")}`);

    await app.invoke({ log: "start" }, config);
    await app.invoke(resume("Dune"), config);
    const second = await app.getState(config);
    expect(second.status).toBe("interrupted");
    expect(second.interrupts).toEqual([{ node: "review", value: "Author?" }]);

    const final = await app.invoke(resume("Herbert"), config);
    expect(final.log).toEqual(["start", "drafted", "Dune by Herbert", "published"]);
  });

  it("streams an interrupt event and no done event", async () => {
    const { app } = reviewGraph((ask) => String(ask("Publish?")));
    const events = [];
    for await (const event of app.stream({ log: "start" }, config)) events.push(event);

    expect(events.map((event) => event.type)).toEqual([
      "node_start",
      "node_end",
      "node_start",
      "interrupt",
    ]);
    expect(events.at(-1)).toEqual({ type: "interrupt", node: "review", value: "Publish?" });
    const resumed = [];
    for await (const event of app.stream(resume("yes"), config)) resumed.push(event.type);
    expect(resumed.at(-1)).toBe("done");
  });

  it("lets parallel nodes finish before pausing, and re-runs only the interrupted one", async () => {
    const runs: string[] = [];
    const app = new FlowStateGraph(State)
      .addNode("ask", (_state, context) => {
        runs.push("ask");
        return { log: `answer ${context.interrupt<string>("Which?")}` };
      })
      .addNode("work", async () => {
        runs.push("work");
        await new Promise((resolve) => setImmediate(resolve));
        return { log: "worked" };
      })
      .addEdge(START, "ask")
      .addEdge(START, "work")
      .addEdge("ask", END)
      .addEdge("work", END)
      .compile({ checkpointer: new MemorySaver() });

    const paused = await app.invoke({ log: "go" }, config);
    expect(paused.log).toEqual(["go", "worked"]);
    const final = await app.invoke(resume("A"), config);
    expect(final.log).toEqual(["go", "worked", "answer A"]);
    expect(runs.sort()).toEqual(["ask", "ask", "work"]);
  });

  it("rejects resume() for a thread that is not interrupted, changing nothing", async () => {
    const { app } = reviewGraph(() => "no question");
    const error = await app.invoke(resume(true), config).catch((caught: unknown) => caught);
    expect(NotInterruptedError.isInstance(error)).toBe(true);
    expect((error as NotInterruptedError).status).toBe("new");

    await app.invoke({ log: "start" }, config);
    await expect(app.invoke(resume(true), config)).rejects.toSatisfy(
      NotInterruptedError.isInstance,
    );
    expect((await app.getState(config)).status).toBe("done");
  });

  it("is an error without a checkpointer to keep the answer's place", async () => {
    const app = new FlowStateGraph(State)
      .addNode("ask", (_state, context) => ({ log: String(context.interrupt("?")) }))
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    await expect(app.invoke(resume(1), config)).rejects.toSatisfy(NotInterruptedError.isInstance);
  });
});
