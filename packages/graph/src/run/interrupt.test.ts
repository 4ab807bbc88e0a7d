import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Checkpoint } from "../checkpoint/checkpoint.js";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { InterruptNotFoundError } from "../error/interrupt-not-found-error.js";
import { NotInterruptedError } from "../error/not-interrupted-error.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState } from "../state/state-definition.js";
import { resume, resumeByIds } from "./interrupt.js";

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
    expect(state.interrupts).toEqual([
      { id: expect.stringMatching(/^[0-9a-f]{32}$/), node: "review", value: "Publish?" },
    ]);
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
    const first = await app.getState(config);
    await app.invoke(resume("Dune"), config);
    const second = await app.getState(config);
    expect(second.status).toBe("interrupted");
    expect(second.interrupts).toEqual([
      { id: expect.any(String), node: "review", value: "Author?" },
    ]);
    // A new question, so a new id: an answer meant for the first cannot land on the second.
    expect(second.interrupts?.[0]?.id).not.toBe(first.interrupts?.[0]?.id);

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
    const { interrupts } = await app.getState(config);
    expect(events.at(-1)).toEqual({
      type: "interrupt",
      id: interrupts?.[0]?.id,
      node: "review",
      value: "Publish?",
    });
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

/** START -> {left, right} -> END: both ask a question; counts their runs. */
function twoQuestions() {
  const runs: string[] = [];
  const ask = (name: string) => (_state: unknown, context: { interrupt<R>(value: unknown): R }) => {
    runs.push(name);
    return { log: `${name}: ${JSON.stringify(context.interrupt(`${name}?`))}` };
  };
  const app = new FlowStateGraph(State)
    .addNode("left", ask("left"))
    .addNode("right", ask("right"))
    .addEdge(START, "left")
    .addEdge(START, "right")
    .addEdge("left", END)
    .addEdge("right", END)
    .compile({ checkpointer: new MemorySaver() });
  return { app, runs };
}

const idOf = async (app: ReturnType<typeof twoQuestions>["app"], node: string) => {
  const { interrupts = [] } = await app.getState(config);
  return interrupts.find((interrupt) => interrupt.node === node)!.id;
};

describe("interrupt ids", () => {
  it("answers parallel nodes' questions in one resume, by id", async () => {
    const { app, runs } = twoQuestions();
    const streamed = [];
    for await (const event of app.stream({ log: "go" }, config)) {
      if (event.type === "interrupt") streamed.push(event);
    }
    const paused = await app.getState(config);
    expect(paused.interrupts?.map(({ node }) => node).sort()).toEqual(["left", "right"]);
    expect(new Set(paused.interrupts?.map(({ id }) => id)).size).toBe(2);
    expect(streamed.map(({ id, node, value }) => ({ id, node, value }))).toEqual(paused.interrupts);

    const final = await app.invoke(
      resumeByIds({ [await idOf(app, "left")]: "L", [await idOf(app, "right")]: { pick: "R" } }),
      config,
    );
    expect([...final.log].sort()).toEqual(["go", 'left: "L"', 'right: {"pick":"R"}']);
    expect(runs.sort()).toEqual(["left", "left", "right", "right"]);
    expect((await app.getState(config)).status).toBe("done");
  });

  it("asks a question left unanswered again under the same id", async () => {
    const { app } = twoQuestions();
    await app.invoke({ log: "go" }, config);
    const rightId = await idOf(app, "right");
    await app.invoke(resumeByIds({ [await idOf(app, "left")]: "L" }), config);
    const still = await app.getState(config);
    expect(still.status).toBe("interrupted");
    expect(still.interrupts).toEqual([{ id: rightId, node: "right", value: "right?" }]);
    const final = await app.invoke(resumeByIds({ [rightId]: "R" }), config);
    expect([...final.log].sort()).toEqual(["go", 'left: "L"', 'right: "R"']);
  });

  it("takes resume(value) as the answer to the first question, whatever its keys", async () => {
    const { app } = twoQuestions();
    await app.invoke({ log: "go" }, config);
    const { interrupts = [] } = await app.getState(config);
    const [first, second] = interrupts;
    // An object answer whose keys happen to be interrupt ids is still one answer.
    const answer = { [first!.id]: 1, [second!.id]: 2 };
    await app.invoke(resume(answer), config);
    const after = await app.getState(config);
    expect(after.values.log).toContain(`${first!.node}: ${JSON.stringify(answer)}`);
    expect(after.interrupts?.map(({ id }) => id)).toEqual([second!.id]);
  });

  it("refuses ids the thread does not wait on, and an empty answer, changing nothing", async () => {
    const { app, runs } = twoQuestions();
    await app.invoke({ log: "go" }, config);
    const before = await app.getState(config);
    const leftId = await idOf(app, "left");

    const error = await app
      .invoke(resumeByIds({ [leftId]: "L", nope: "?" }), config)
      .catch((caught: unknown) => caught);
    expect(InterruptNotFoundError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ interruptIds: ["nope"] });
    expect((error as InterruptNotFoundError).pendingIds).toHaveLength(2);
    await expect(app.invoke(resumeByIds({}), config)).rejects.toSatisfy(
      InterruptNotFoundError.isInstance,
    );
    expect(await app.getState(config)).toEqual(before);
    expect(runs).toHaveLength(2);

    await app.invoke(resumeByIds({ [leftId]: "L", [await idOf(app, "right")]: "R" }), config);
    await expect(app.invoke(resumeByIds({ [leftId]: "L" }), config)).rejects.toSatisfy(
      NotInterruptedError.isInstance,
    );
  });

  it("gives a question stored without an id the id a server derived from its checkpoint", async () => {
    const saver = new MemorySaver();
    const graph = () =>
      new FlowStateGraph(State)
        .addNode("ask", (_state, context) => ({ log: `approved: ${context.interrupt("?")}` }))
        .addFlow([START.to("ask").to(END)]);
    await graph().compile({ checkpointer: saver }).invoke({ log: "start" }, config);
    // The same thread as a release before interrupt ids wrote it: its question has no id.
    const checkpoints = [];
    for await (const checkpoint of saver.list("review")) checkpoints.unshift(checkpoint);
    const stop = checkpoints.pop() as Checkpoint;
    const { id: _stored, ...withoutId } = stop.interrupts![0]!;
    const legacy = new MemorySaver();
    for (const checkpoint of [...checkpoints, { ...stop, interrupts: [withoutId] }]) {
      await legacy.put(checkpoint);
    }
    const app = graph().compile({ checkpointer: legacy });

    const serverId = createHash("sha256").update(`${stop.id}\0${0}`).digest("hex").slice(0, 32);
    const paused = await app.getState(config);
    expect(paused.interrupts).toEqual([{ id: serverId, node: "ask", value: "?" }]);
    const final = await app.invoke(resumeByIds({ [serverId]: true }), config);
    expect(final.log).toEqual(["start", "approved: true"]);
  });
});
