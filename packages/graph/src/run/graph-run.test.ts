import { describe, expect, it } from "vitest";
import { z } from "zod";
import { NodeExecutionError } from "../error/node-execution-error.js";
import { StateConflictError } from "../error/state-conflict-error.js";
import { StateValidationError } from "../error/state-validation-error.js";
import { StepLimitError } from "../error/step-limit-error.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState } from "../state/state-definition.js";
import type { GraphEvent } from "./graph-event.js";
import { createGate } from "./test-gate.js";
import { Timeline } from "./test-timeline.js";

const State = defineState({
  log: reducer(z.array(z.string()), appendReducer, () => []),
  a: z.string().optional(),
  b: z.string().optional(),
  result: z.string().optional(),
  count: z.number().default(0),
});

function untilAborted(signal: AbortSignal): Promise<void> {
  const gate = createGate();
  if (signal.aborted) gate.open();
  signal.addEventListener("abort", () => gate.open(), { once: true });
  return gate.wait();
}

describe("event-driven scheduling", () => {
  it("runs a fan-out concurrently and its join once, after both, seeing both writes", async () => {
    const timeline = new Timeline();
    const aStarted = createGate();
    const bStarted = createGate();
    let seenByJoin: unknown;
    const app = new FlowStateGraph(State)
      .addNode("a", async () => {
        timeline.mark("a:start");
        aStarted.open();
        await bStarted.wait();
        timeline.mark("a:end");
        return { a: "A", log: "a" };
      })
      .addNode("b", async () => {
        timeline.mark("b:start");
        bStarted.open();
        await aStarted.wait();
        timeline.mark("b:end");
        return { b: "B", log: "b" };
      })
      .addNode("c", (state) => {
        timeline.mark("c:start");
        seenByJoin = { a: state.a, b: state.b };
        return { result: `${state.a}+${state.b}` };
      })
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge("a", "c")
      .addEdge("b", "c")
      .addEdge("c", END)
      .compile();

    const final = await app.invoke({});

    const firstEnd = Math.min(timeline.at("a:end"), timeline.at("b:end"));
    expect(timeline.at("a:start")).toBeLessThan(firstEnd);
    expect(timeline.at("b:start")).toBeLessThan(firstEnd);
    expect(timeline.count("c:start")).toBe(1);
    expect(timeline.at("c:start")).toBeGreaterThan(
      Math.max(timeline.at("a:end"), timeline.at("b:end")),
    );
    expect(seenByJoin).toEqual({ a: "A", b: "B" });
    expect(final.result).toBe("A+B");
    expect([...final.log].sort()).toEqual(["a", "b"]);
  });

  it("never makes a fast branch wait for a slow sibling it does not depend on", async () => {
    // A -> {B, C -> D} -> E, with B held until D has ended.
    const timeline = new Timeline();
    const dEnded = createGate();
    const step = (name: string) => () => {
      timeline.mark(`${name}:start`);
      timeline.mark(`${name}:end`);
      return { log: name };
    };
    const app = new FlowStateGraph(State)
      .addNode("A", step("A"))
      .addNode("B", async () => {
        timeline.mark("B:start");
        await dEnded.wait();
        timeline.mark("B:end");
        return { log: "B" };
      })
      .addNode("C", step("C"))
      .addNode("D", () => {
        timeline.mark("D:start");
        timeline.mark("D:end");
        dEnded.open();
        return { log: "D" };
      })
      .addNode("E", step("E"))
      .addEdge(START, "A")
      .addEdge("A", "B")
      .addEdge("A", "C")
      .addEdge("C", "D")
      .addEdge("B", "E")
      .addEdge("D", "E")
      .addEdge("E", END)
      .compile();

    const final = await app.invoke({});

    expect(dEnded.gaveUp).toBe(false);
    expect(timeline.at("D:start")).toBeLessThan(timeline.at("B:end"));
    expect(timeline.count("E:start")).toBe(1);
    expect(timeline.at("E:start")).toBeGreaterThan(timeline.at("B:end"));
    expect(timeline.at("E:start")).toBeGreaterThan(timeline.at("D:end"));
    expect(final.log.at(-1)).toBe("E");
  });

  describe("a join one of whose predecessors a conditional skipped", () => {
    const build = (declareTargets: boolean, take: boolean, timeline: Timeline) => {
      const mark = (name: string) => () => {
        timeline.mark(`${name}:start`);
        return { log: name };
      };
      const graph = new FlowStateGraph(State)
        .addNode("split", mark("split"))
        .addNode("p", mark("p"))
        .addNode("q", mark("q"))
        .addNode("join", mark("join"))
        .addEdge(START, "split")
        .addEdge("split", "p")
        .addEdge("p", "join")
        .addEdge("q", "join")
        .addEdge("join", END);
      const router = () => (take ? "q" : END);
      return declareTargets
        ? graph.addConditionalEdges("split", router, ["q", END]).compile()
        : graph.addConditionalEdges("split", router).compile();
    };

    for (const declareTargets of [true, false]) {
      const how = declareTargets ? "declared" : "undeclared";
      it(`still runs once when the branch is skipped (${how} targets)`, async () => {
        const timeline = new Timeline();
        const final = await build(declareTargets, false, timeline).invoke({});
        expect(timeline.count("q:start")).toBe(0);
        expect(timeline.count("join:start")).toBe(1);
        expect(final.log).toEqual(["split", "p", "join"]);
      });

      it(`waits for the branch when it is taken (${how} targets)`, async () => {
        const timeline = new Timeline();
        const final = await build(declareTargets, true, timeline).invoke({});
        expect(timeline.count("join:start")).toBe(1);
        expect(timeline.at("join:start")).toBeGreaterThan(timeline.at("q:start"));
        expect(final.log.at(-1)).toBe("join");
      });
    }
  });

  it("runs a generate -> reflect -> critique loop until a conditional edge ends it", async () => {
    const app = new FlowStateGraph(State)
      .addNode("generate", (state) => ({
        count: state.count + 1,
        log: `generate${state.count + 1}`,
      }))
      .addNode("reflect", () => ({ log: "reflect" }))
      .addNode("critique", () => ({ log: "critique" }))
      .addEdge(START, "generate")
      .addConditionalEdges("generate", (state) => (state.count >= 3 ? END : "reflect"), [
        "reflect",
        END,
      ])
      .addEdge("reflect", "critique")
      .addEdge("critique", "generate")
      .compile();

    const events: GraphEvent[] = [];
    for await (const event of app.stream({})) events.push(event);

    const starts = events.flatMap((e) => (e.type === "node_start" ? [`${e.node}#${e.visit}`] : []));
    expect(starts).toEqual([
      "generate#1",
      "reflect#1",
      "critique#1",
      "generate#2",
      "reflect#2",
      "critique#2",
      "generate#3",
    ]);
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    expect(done?.type === "done" && done.state.count).toBe(3);
  });

  it("gives each node visit an idempotency key of its thread, run, node and visit", async () => {
    const keys: string[] = [];
    const app = new FlowStateGraph(State)
      .addNode("loop", (state, { idempotencyKey }) => {
        keys.push(idempotencyKey);
        return { count: state.count + 1 };
      })
      .addNode("after", (_state, { idempotencyKey }) => {
        keys.push(idempotencyKey);
        return {};
      })
      .addEdge(START, "loop")
      .addConditionalEdges("loop", (state) => (state.count >= 2 ? "after" : "loop"), [
        "loop",
        "after",
      ])
      .addEdge("after", END)
      .compile();
    const run = (thread_id: string, run_id: string) =>
      app.invoke({}, { configurable: { thread_id, run_id } });

    await run("t1", "r1");
    const first = keys.splice(0);
    expect(first).toHaveLength(3);
    expect(new Set(first).size).toBe(3);
    for (const key of first) expect(key).toMatch(/^[0-9a-f]{64}$/);

    await run("t1", "r1");
    expect(keys.splice(0)).toEqual(first);
    await run("t2", "r1");
    await run("t1", "r2");
    // Parts are kept apart: thread "t1/r" with run "1" is not thread "t1" with run "r1".
    await run("t1/r", "1");
    expect(new Set([...first, ...keys]).size).toBe(first.length + keys.length);
  });

  it("refuses concurrent writes to a last-value key, naming the key and both nodes", async () => {
    const aStarted = createGate();
    const bStarted = createGate();
    const app = new FlowStateGraph(State)
      .addNode("writerA", async () => {
        aStarted.open();
        await bStarted.wait();
        return { result: "from A" };
      })
      .addNode("writerB", async () => {
        bStarted.open();
        await aStarted.wait();
        return { result: "from B" };
      })
      .addEdge(START, "writerA")
      .addEdge(START, "writerB")
      .addEdge("writerA", END)
      .addEdge("writerB", END)
      .compile();

    const error = await app.invoke({}).catch((e: unknown) => e);

    expect(StateConflictError.isInstance(error)).toBe(true);
    const conflict = error as StateConflictError;
    expect(conflict.key).toBe("result");
    expect([...conflict.nodes].sort()).toEqual(["writerA", "writerB"]);
    expect(conflict.message).toContain('"writerA"');
    expect(conflict.message).toContain('"writerB"');
    expect(conflict.message).toContain('"result"');
  });

  it("accepts sequential writes to a last-value key and concurrent writes to a reducer key", async () => {
    const aStarted = createGate();
    const bStarted = createGate();
    const app = new FlowStateGraph(State)
      .addNode("first", () => ({ result: "first" }))
      .addNode("left", async () => {
        aStarted.open();
        await bStarted.wait();
        return { log: "left" };
      })
      .addNode("right", async () => {
        bStarted.open();
        await aStarted.wait();
        return { log: ["right", "right again"] };
      })
      .addNode("last", () => ({ result: "last" }))
      .addFlow([START.to("first").to("left").to("last"), START.to("first").to("right").to("last")])
      .addEdge("last", END)
      .compile();

    const final = await app.invoke({});

    expect(final.result).toBe("last");
    expect([...final.log].sort()).toEqual(["left", "right", "right again"]);
  });

  it("fails the run naming the node that threw and aborts its running siblings", async () => {
    const slowStarted = createGate();
    let siblingSignal: AbortSignal | undefined;
    const original = new Error("market data unavailable");
    const app = new FlowStateGraph(State)
      .addNode("bad", async () => {
        await slowStarted.wait();
        throw original;
      })
      .addNode("slow", async (_state, { signal }) => {
        siblingSignal = signal;
        slowStarted.open();
        await untilAborted(signal);
        return { log: "slow" };
      })
      .addEdge(START, "bad")
      .addEdge(START, "slow")
      .addEdge("bad", END)
      .addEdge("slow", END)
      .compile();

    const error = await app.invoke({}).catch((e: unknown) => e);

    expect(NodeExecutionError.isInstance(error)).toBe(true);
    expect((error as NodeExecutionError).node).toBe("bad");
    expect((error as NodeExecutionError).cause).toBe(original);
    expect((error as Error).message).toContain('"bad"');
    expect(siblingSignal?.aborted).toBe(true);
    expect(siblingSignal?.reason).toBe(error);
  });

  it("stops at the step limit with the state so far", async () => {
    const app = new FlowStateGraph(State)
      .addNode("spin", (state) => ({ count: state.count + 1 }))
      .addEdge(START, "spin")
      .addConditionalEdges("spin", () => "spin", ["spin", END])
      .compile({ stepLimit: 7 });

    const error = await app.invoke({ result: "kept" }).catch((e: unknown) => e);

    expect(StepLimitError.isInstance(error)).toBe(true);
    const limitError = error as StepLimitError;
    expect(limitError.limit).toBe(7);
    expect(limitError.state).toMatchObject({ count: 7, result: "kept" });
    expect(limitError.next).toEqual(["spin"]);

    const perCall = await app.invoke({}, { stepLimit: 3 }).catch((e: unknown) => e);
    expect((perCall as StepLimitError).limit).toBe(3);
  });

  it("defaults to a limit of 100 node runs", async () => {
    const app = new FlowStateGraph(State)
      .addNode("spin", (state) => ({ count: state.count + 1 }))
      .addEdge(START, "spin")
      .addConditionalEdges("spin", () => "spin", ["spin", END])
      .compile();
    const error = (await app.invoke({}).catch((e: unknown) => e)) as StepLimitError;
    expect(error.limit).toBe(100);
    expect(error.state.count).toBe(100);
  });

  it("streams start and end events in order, then the final state", async () => {
    const app = new FlowStateGraph(State)
      .addNode("one", () => ({ a: "1", log: "one" }))
      .addNode("two", () => ({ b: "2" }))
      .addFlow([START.to("one").to("two").to(END)])
      .compile();

    const events: GraphEvent[] = [];
    for await (const event of app.stream({ log: "input" })) events.push(event);

    expect(events).toEqual([
      { type: "node_start", node: "one", step: 1, visit: 1 },
      { type: "node_end", node: "one", step: 1, update: { a: "1", log: "one" } },
      { type: "node_start", node: "two", step: 2, visit: 1 },
      { type: "node_end", node: "two", step: 2, update: { b: "2" } },
      { type: "done", state: { log: ["input", "one"], a: "1", b: "2", count: 0 } },
    ]);
  });

  it("fails with a graph error when a router returns a node that does not exist", async () => {
    const app = new FlowStateGraph(State)
      .addNode("pick", () => ({}))
      .addNode("real", () => ({}))
      .addEdge(START, "pick")
      .addConditionalEdges("pick", () => "imaginary")
      .addEdge("real", END)
      .compile();
    await expect(app.invoke({})).rejects.toThrow(/"pick" returned "imaginary"/);
  });

  it("reports a router that returns nothing as a bad route", async () => {
    const app = new FlowStateGraph(State)
      .addNode("pick", () => ({}))
      .addEdge(START, "pick")
      .addConditionalEdges("pick", () => undefined as never)
      .compile();
    await expect(app.invoke({})).rejects.toThrow(/"pick" returned "undefined"/);
  });

  it("fails naming the node and key when a node's update fails the schema", async () => {
    const app = new FlowStateGraph(State)
      .addNode("counter", () => ({ count: "many" }) as never)
      .addFlow([START.to("counter").to(END)])
      .compile();
    const error = (await app.invoke({}).catch((e: unknown) => e)) as StateValidationError;
    expect(StateValidationError.isInstance(error)).toBe(true);
    expect(error.node).toBe("counter");
    expect(error.key).toBe("count");
    expect(error.message).toMatch(/node "counter" for state key "count"/);
  });

  it("fails naming the node when a router throws", async () => {
    const app = new FlowStateGraph(State)
      .addNode("pick", () => ({}))
      .addEdge(START, "pick")
      .addConditionalEdges("pick", () => {
        throw new Error("no route");
      })
      .compile();
    const error = (await app.invoke({}).catch((e: unknown) => e)) as NodeExecutionError;
    expect(error.node).toBe("pick");
    expect(error.phase).toBe("router");
  });

  it("starts every node a router returns as a list, concurrently", async () => {
    const timeline = new Timeline();
    const xStarted = createGate();
    const yStarted = createGate();
    const app = new FlowStateGraph(State)
      .addNode("fan", () => ({}))
      .addNode("x", async () => {
        timeline.mark("x:start");
        xStarted.open();
        await yStarted.wait();
        timeline.mark("x:end");
        return { a: "x" };
      })
      .addNode("y", async () => {
        timeline.mark("y:start");
        yStarted.open();
        await xStarted.wait();
        timeline.mark("y:end");
        return { b: "y" };
      })
      .addEdge(START, "fan")
      .addConditionalEdges("fan", () => ["x", "y"], { x: "x", y: "y" })
      .addEdge("x", END)
      .addEdge("y", END)
      .compile();

    const final = await app.invoke({});

    expect(Math.max(timeline.at("x:start"), timeline.at("y:start"))).toBeLessThan(
      Math.min(timeline.at("x:end"), timeline.at("y:end")),
    );
    expect(final).toMatchObject({ a: "x", b: "y" });
  });
});
