import { ConfigurationError } from "@framework/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { collect } from "../conformance/conformance-context.js";
import { CheckpointNotFoundError } from "../error/checkpoint-not-found-error.js";
import { StateValidationError } from "../error/state-validation-error.js";
import { UnknownNodeError } from "../error/unknown-node-error.js";
import { END, START } from "../node/endpoints.js";
import { resume } from "../run/interrupt.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState } from "../state/state-definition.js";
import { FlowStateGraph } from "./flow-state-graph.js";

const State = defineState({
  log: reducer(z.array(z.string()), appendReducer, () => []),
  draft: z.string().optional(),
  approved: z.boolean().optional(),
});

const config = { configurable: { thread_id: "post" } };

/**
 * write -> review -> (approved ? publish : write): review asks a person when `ask` is set.
 * Counts node runs.
 */
function postGraph(options: { ask?: boolean; saver?: MemorySaver } = {}) {
  const runs: string[] = [];
  const saver = options.saver ?? new MemorySaver();
  const app = new FlowStateGraph(State)
    .addNode("write", (state) => {
      runs.push("write");
      return { draft: `draft ${state.log.length}`, log: "write" };
    })
    .addNode("review", (state, context) => {
      runs.push("review");
      const approved = options.ask ? context.interrupt<boolean>(`Publish ${state.draft}?`) : true;
      return { approved, log: "review" };
    })
    .addNode("publish", (state) => {
      runs.push("publish");
      return { log: `published ${state.draft}` };
    })
    .addEdge(START, "write")
    .addEdge("write", "review")
    .addConditionalEdges("review", (state) => (state.approved ? "publish" : "write"), [
      "publish",
      "write",
    ])
    .addEdge("publish", END)
    .compile({ checkpointer: saver });
  return { app, runs, saver };
}

describe("updateState", () => {
  it("merges an update from outside through the reducers, leaving what runs next alone", async () => {
    const { app, saver } = postGraph();
    await app.invoke({ log: "go" }, config);
    const before = await app.getState(config);

    const written = await app.updateState(config, { log: "edited", draft: "mine" });
    const after = await app.getState(config);
    expect(after.values).toEqual({
      log: [...before.values.log, "edited"],
      draft: "mine",
      approved: true,
    });
    expect(after).toMatchObject({ status: "done", next: [] });
    expect(after.checkpoint).toEqual(written);
    expect(written).toMatchObject({
      source: "update",
      parentId: before.checkpoint?.id,
      seq: (before.checkpoint?.seq ?? 0) + 1,
    });
    expect(written).not.toHaveProperty("node");
    // Read back by a graph that never saw the update: the checkpoint alone says it all.
    const fresh = postGraph({ saver }).app;
    expect((await fresh.getState(config)).values).toEqual(after.values);
    const history = await collect(fresh.getStateHistory(config));
    expect(history[1]?.values).toEqual(before.values);
  });

  it("refuses an update that does not fit the state, writing nothing", async () => {
    const { app, saver } = postGraph();
    await app.invoke({ log: "go" }, config);
    const latest = await saver.getLatest("post");

    const error = await app
      .updateState(config, { approved: "yes" } as never)
      .catch((caught: unknown) => caught);
    expect(StateValidationError.isInstance(error)).toBe(true);
    expect((error as StateValidationError).message).toContain("updateState");
    expect((error as StateValidationError).key).toBe("approved");
    await expect(app.updateState(config, { nope: 1 } as never)).rejects.toSatisfy(
      StateValidationError.isInstance,
    );
    expect(await saver.getLatest("post")).toEqual(latest);
  });

  it("as a node, moves the thread on as if that node had just ended", async () => {
    const { app, runs } = postGraph();
    await app.invoke({ log: "go" }, config);
    runs.length = 0;

    // review's router sees the updated state: not approved leads back to write.
    const written = await app.updateState(
      config,
      { approved: false, log: "rejected by hand" },
      { asNode: "review" },
    );
    expect(written).toMatchObject({ source: "update", node: "review" });
    const moved = await app.getState(config);
    expect(moved).toMatchObject({ status: "running", next: ["write"] });

    const final = await app.invoke(null, config);
    expect(runs).toEqual(["write", "review", "publish"]);
    expect(final.log.slice(-4)).toEqual([
      "rejected by hand",
      "write",
      "review",
      "published draft 5",
    ]);
  });

  it("as a node with no successor, leaves the thread done", async () => {
    const { app } = postGraph();
    await app.invoke({ log: "go" }, config);
    await app.updateState(config, { log: "again" }, { asNode: "publish" });
    expect(await app.getState(config)).toMatchObject({ status: "done", next: [] });
  });

  it("refuses a node the graph does not have, writing nothing", async () => {
    const { app, saver } = postGraph();
    await app.invoke({ log: "go" }, config);
    const latest = await saver.getLatest("post");
    const error = await app
      .updateState(config, { log: "x" }, { asNode: "edit" })
      .catch((caught: unknown) => caught);
    expect(UnknownNodeError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ node: "edit", nodes: ["write", "review", "publish"] });
    expect(await saver.getLatest("post")).toEqual(latest);
  });

  it("forks the thread from an older checkpoint", async () => {
    const { app, runs } = postGraph();
    await app.invoke({ log: "go" }, config);
    const history = await collect(app.getStateHistory(config));
    const afterWrite = history.find((snapshot) => snapshot.checkpoint?.node === "write")!;
    runs.length = 0;

    const fork = {
      configurable: { ...config.configurable, checkpoint_id: afterWrite.checkpoint!.id },
    };
    const written = await app.updateState(fork, { draft: "better" });
    expect(written.parentId).toBe(afterWrite.checkpoint!.id);
    const forked = await app.getState(config);
    expect(forked.values).toEqual({ ...afterWrite.values, draft: "better" });
    expect(forked.next).toEqual(["review"]);

    const final = await app.invoke(null, config);
    expect(runs).toEqual(["review", "publish"]);
    expect(final.log.at(-1)).toBe("published better");
  });

  it("keeps an interrupted thread interrupted, its question answerable by the same id", async () => {
    const { app, runs } = postGraph({ ask: true });
    await app.invoke({ log: "go" }, config);
    const paused = await app.getState(config);

    const written = await app.updateState(config, { draft: "edited draft" });
    const updated = await app.getState(config);
    expect(updated).toMatchObject({ status: "interrupted", next: ["review"] });
    expect(updated.interrupts).toEqual(paused.interrupts);
    expect(written.runId).toBe(paused.checkpoint?.runId);

    const final = await app.invoke(resume(true), config);
    expect(final.log.at(-1)).toBe("published edited draft");
    expect(runs).toEqual(["write", "review", "review", "publish"]);
  });

  it("as the interrupted node, drops its question and runs what follows", async () => {
    const { app, runs } = postGraph({ ask: true });
    await app.invoke({ log: "go" }, config);
    await app.updateState(
      config,
      { approved: true, log: "approved by hand" },
      { asNode: "review" },
    );
    const moved = await app.getState(config);
    expect(moved).toMatchObject({ status: "running", next: ["publish"] });
    expect(moved).not.toHaveProperty("interrupts");

    const final = await app.invoke(null, config);
    expect(runs).toEqual(["write", "review", "publish"]);
    expect(final.log.slice(-2)).toEqual(["approved by hand", "published draft 1"]);
  });

  it("starts a thread never run, as input from outside or as a node", async () => {
    const { app, runs } = postGraph();
    await app.updateState(config, { draft: "seed" });
    expect(await app.getState(config)).toMatchObject({
      status: "done",
      next: [],
      values: { log: [], draft: "seed" },
    });

    const other = { configurable: { thread_id: "other" } };
    await app.updateState(other, { draft: "seed", log: "by hand" }, { asNode: "write" });
    expect(await app.getState(other)).toMatchObject({ status: "running", next: ["review"] });
    await app.invoke(null, other);
    expect(runs).toEqual(["review", "publish"]);
  });

  it("gives a node the update moves back upstream a new run, so visits never repeat a key", async () => {
    const keys: string[] = [];
    const app = new FlowStateGraph(State)
      .addNode("first", (_state, { idempotencyKey }) => {
        keys.push(idempotencyKey);
        return { log: "first" };
      })
      .addNode("second", (_state, { idempotencyKey }) => {
        keys.push(idempotencyKey);
        return { log: "second" };
      })
      .addFlow([START.to("first").to("second").to(END)])
      .compile({ checkpointer: new MemorySaver() });
    await app.invoke({ log: "go" }, config);
    const done = await app.getState(config);
    const written = await app.updateState(config, null, { asNode: "first" });
    expect(written.runId).not.toBe(done.checkpoint?.runId);
    await app.invoke(null, config);
    expect(new Set(keys).size).toBe(3);
  });

  it("keeps an unfinished run's id unless the update ends a node the run had left behind", async () => {
    const keys: string[] = [];
    let fail = true;
    const step = (name: string) => (_state: unknown, context: { idempotencyKey: string }) => {
      keys.push(context.idempotencyKey);
      if (name === "third" && fail) throw new Error("down");
      return { log: name };
    };
    const app = new FlowStateGraph(State)
      .addNode("first", step("first"))
      .addNode("second", step("second"))
      .addNode("third", step("third"))
      .addFlow([START.to("first").to("second").to("third").to(END)])
      .compile({ checkpointer: new MemorySaver() });
    await app.invoke({ log: "go" }, config).catch(() => {});
    const failed = await app.getState(config);
    expect(failed.status).toBe("failed");

    const edit = await app.updateState(config, { log: "note" });
    expect(edit.runId).toBe(failed.checkpoint?.runId);
    const fromFailed = { configurable: { ...config.configurable, checkpoint_id: edit.id } };
    const asFailed = await app.updateState(fromFailed, { log: "by hand" }, { asNode: "third" });
    expect(asFailed.runId).toBe(failed.checkpoint?.runId);
    // first is behind the run: the second it triggers would repeat its visit 1.
    const rewound = await app.updateState(fromFailed, null, { asNode: "first" });
    expect(rewound.runId).not.toBe(failed.checkpoint?.runId);
    fail = false;
    await app.invoke(null, config);
    // second and third ran again under the new run: keys of their own.
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
  });

  it("needs a checkpointer and a checkpoint of the thread", async () => {
    const noSaver = new FlowStateGraph(State)
      .addNode("n", () => ({}))
      .addEdge(START, "n")
      .addEdge("n", END)
      .compile();
    await expect(noSaver.updateState(config, { draft: "x" })).rejects.toSatisfy(
      ConfigurationError.isInstance,
    );
    const { app } = postGraph();
    await expect(
      app.updateState({ configurable: { thread_id: "post", checkpoint_id: "missing" } }, {}),
    ).rejects.toSatisfy(CheckpointNotFoundError.isInstance);
  });
});
