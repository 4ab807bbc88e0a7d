import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { NodeExecutionError } from "../error/node-execution-error.js";
import { StateMutationError } from "../error/state-mutation-error.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "./append-reducer.js";
import { reducer } from "./reducer.js";
import { defineState, type StateOf } from "./state-definition.js";

const Portfolio = defineState({
  account: z
    .object({ cash: z.number(), positions: z.array(z.object({ symbol: z.string() })) })
    .default({ cash: 100, positions: [{ symbol: "AAPL" }, { symbol: "MSFT" }] }),
  notes: reducer(z.array(z.object({ text: z.string() })), appendReducer, () => []),
  seen: z.string().optional(),
});
type Portfolio = StateOf<typeof Portfolio>;

const thread = { configurable: { thread_id: "t" } };

/** A graph START -> first -> mutate -> END, where `mutate` runs `change` on its state. */
function graphMutating(change: (state: Portfolio) => void) {
  return new FlowStateGraph(Portfolio)
    .addNode("first", () => ({ notes: { text: "first" } }))
    .addNode("mutate", (state: Portfolio) => {
      change(state);
      return { seen: "yes" };
    })
    .addEdge(START, "first")
    .addEdge("first", "mutate")
    .addEdge("mutate", END)
    .compile({ checkpointer: new MemorySaver() });
}

describe("state handed to nodes", () => {
  it("is deeply frozen: nested objects and arrays included", async () => {
    let seen: Portfolio | undefined;
    const app = new FlowStateGraph(Portfolio)
      .addNode("look", (state: Portfolio) => {
        seen = state;
        return {};
      })
      .addEdge(START, "look")
      .addEdge("look", END)
      .compile();
    await app.invoke({ notes: [{ text: "input" }] });
    expect(Object.isFrozen(seen)).toBe(true);
    expect(Object.isFrozen(seen?.account)).toBe(true);
    expect(Object.isFrozen(seen?.account.positions)).toBe(true);
    expect(Object.isFrozen(seen?.account.positions[0])).toBe(true);
    expect(Object.isFrozen(seen?.notes)).toBe(true);
    expect(Object.isFrozen(seen?.notes[0])).toBe(true);
  });

  const mutations: Array<[string, (state: Portfolio) => void, string, string]> = [
    [
      "a nested field",
      (state) => {
        state.account.cash = 0;
      },
      "account",
      "cash",
    ],
    [
      "a nested array",
      (state) => {
        state.account.positions.push({ symbol: "IBM" });
      },
      "account",
      "2",
    ],
    [
      "an entry of a reducer list",
      (state) => {
        (state.notes[0] as { text: string }).text = "x";
      },
      "notes",
      "text",
    ],
    [
      "a reducer list",
      (state) => {
        state.notes.push({ text: "x" });
      },
      "notes",
      "1",
    ],
    [
      "a top-level key",
      (state) => {
        state.seen = "sneaky";
      },
      "seen",
      "seen",
    ],
  ];

  for (const [what, change, key, property] of mutations) {
    it(`refuses a node writing ${what}, with a TypeError naming the node and key`, async () => {
      const app = graphMutating(change);
      const failure = await app.invoke({}, thread).catch((error: unknown) => error);
      expect(NodeExecutionError.isInstance(failure)).toBe(true);
      const cause = (failure as NodeExecutionError).cause;
      expect(StateMutationError.isInstance(cause)).toBe(true);
      expect(cause).toBeInstanceOf(TypeError);
      expect(cause).toMatchObject({ node: "mutate", key, property });
      expect((cause as Error).message).toContain('"mutate"');
      expect((cause as Error).message).toContain(`"${key}"`);
      // The state, and so the checkpoint, is what the earlier nodes left.
      const snapshot = await app.getState(thread);
      expect(snapshot.values.account).toEqual({
        cash: 100,
        positions: [{ symbol: "AAPL" }, { symbol: "MSFT" }],
      });
      expect(snapshot.values.notes).toEqual([{ text: "first" }]);
    });
  }

  it("leaves the caller's input objects alone: the state holds validated copies", async () => {
    const input = { text: "mine" };
    const app = graphMutating(() => {});
    await app.invoke({ notes: [input] }, thread);
    expect(Object.isFrozen(input)).toBe(false);
  });
});

describe("a node's own frozen data", () => {
  it("is not taken for the state: its TypeError is passed on as thrown", async () => {
    const own = Object.freeze({ unrelated: 1 });
    const app = graphMutating(() => {
      (own as { unrelated: number }).unrelated = 2;
    });
    const failure = await app.invoke({}, thread).catch((error: unknown) => error);
    const cause = (failure as NodeExecutionError).cause;
    expect(cause).toBeInstanceOf(TypeError);
    expect(StateMutationError.isInstance(cause)).toBe(false);
  });
});
