import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { type GraphIssueCode, GraphValidationError } from "../error/graph-validation-error.js";
import { END, START } from "../node/endpoints.js";
import { node } from "../node/function-node.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState, type StateOf, type UpdateOf } from "../state/state-definition.js";
import { FlowStateGraph } from "./flow-state-graph.js";

const Message = z.object({ role: z.string(), content: z.string() });
const TradingState = defineState({
  messages: reducer(z.array(Message), appendReducer, () => []),
  equity_insight: z.string().optional(),
  crypto_insight: z.string().optional(),
  final_recommendation: z.string().optional(),
});
type TradingState = StateOf<typeof TradingState>;
type TradingUpdate = UpdateOf<typeof TradingState>;

const noop = () => ({});

function issuesOf(build: () => unknown): { code: GraphIssueCode; nodes: readonly string[] }[] {
  try {
    build();
  } catch (error) {
    expect(GraphValidationError.isInstance(error)).toBe(true);
    return (error as GraphValidationError).issues.map(({ code, nodes }) => ({ code, nodes }));
  }
  throw new Error("compile() accepted the graph");
}

describe("FlowStateGraph", () => {
  it("runs the reference crew in the flow form", async () => {
    const market = node<TradingState, TradingUpdate>("market", () => ({
      equity_insight: "equities up",
      messages: { role: "MarketDataProvider", content: "equities up" },
    }));
    const crypto = node<TradingState, TradingUpdate>("crypto", () => ({
      crypto_insight: "btc flat",
      messages: { role: "CryptoTracker", content: "btc flat" },
    }));
    const recommender = node<TradingState, TradingUpdate>("recommender", (state) => ({
      final_recommendation: `${state.equity_insight}; ${state.crypto_insight}`,
      messages: { role: "Recommender", content: "balanced" },
    }));
    const app = new FlowStateGraph(TradingState)
      .addFlow([
        START.to(market),
        START.to(crypto),
        market.to(recommender),
        crypto.to(recommender),
        recommender.to(END),
      ])
      .compile();

    const final = await app.invoke({ messages: { role: "user", content: "allocate?" } });

    expectTypeOf(final).toEqualTypeOf<TradingState>();
    expect(final.final_recommendation).toBe("equities up; btc flat");
    expect(final.messages.map((m) => m.role)).toEqual([
      "user",
      expect.stringMatching(/MarketDataProvider|CryptoTracker/),
      expect.stringMatching(/MarketDataProvider|CryptoTracker/),
      "Recommender",
    ]);
  });

  it("runs the builder form with a conditional edge that has no declared targets", async () => {
    const graph = new FlowStateGraph(TradingState);
    graph.addNode("market", async () => ({ equity_insight: "..." }));
    graph.addNode("recommender", (state) => ({
      final_recommendation: `on ${state.equity_insight}`,
    }));
    graph.addEdge(START, "market");
    graph.addConditionalEdges("market", (state) => (state.equity_insight ? "recommender" : END));
    graph.addEdge("recommender", END);

    const final = await graph.compile().invoke({});

    expect(final.final_recommendation).toBe("on ...");
  });

  it("types a function node's state and update from the state definition", () => {
    new FlowStateGraph(TradingState).addNode("typed", (state) => {
      expectTypeOf(state).toEqualTypeOf<TradingState>();
      return { messages: [{ role: "a", content: "b" }] };
    });
  });

  it("maps router results through a record path map", async () => {
    const app = new FlowStateGraph(TradingState)
      .addNode("decide", noop)
      .addNode("buy", () => ({ final_recommendation: "buy" }))
      .addNode("sell", () => ({ final_recommendation: "sell" }))
      .addEdge(START, "decide")
      .addConditionalEdges("decide", () => "bullish", { bullish: "buy", bearish: "sell" })
      .addEdge("buy", END)
      .addEdge("sell", END)
      .compile();
    expect((await app.invoke({})).final_recommendation).toBe("buy");
  });

  it("routes from START with a conditional edge", async () => {
    const app = new FlowStateGraph(TradingState)
      .addNode("chat", () => ({ final_recommendation: "chat" }))
      .addNode("idle", () => ({ final_recommendation: "idle" }))
      .addConditionalEdges(START, (state) => (state.messages.length > 0 ? "chat" : "idle"), [
        "chat",
        "idle",
      ])
      .addEdge("chat", END)
      .addEdge("idle", END)
      .compile();
    expect((await app.invoke({})).final_recommendation).toBe("idle");
    expect(
      (await app.invoke({ messages: { role: "user", content: "x" } })).final_recommendation,
    ).toBe("chat");
  });

  describe("compile() refuses", () => {
    it("edges from or to unknown nodes", () => {
      const issues = issuesOf(() =>
        new FlowStateGraph(TradingState)
          .addNode("a", noop)
          .addEdge(START, "a")
          .addEdge("a", "ghost")
          .addEdge("phantom", END)
          .addEdge("a", END)
          .compile(),
      );
      expect(issues).toEqual([
        { code: "unknown_node", nodes: ["ghost"] },
        { code: "unknown_node", nodes: ["phantom"] },
      ]);
    });

    it("edges leaving END or entering START", () => {
      const issues = issuesOf(() =>
        new FlowStateGraph(TradingState)
          .addNode("a", noop)
          .addFlow([START.to("a").to(END).to("a")])
          .addEdge("a", START)
          .compile(),
      );
      expect(issues).toEqual([
        { code: "invalid_edge", nodes: ["__end__", "a"] },
        { code: "invalid_edge", nodes: ["a", "__start__"] },
      ]);
    });

    it("nodes not reachable from START", () => {
      const issues = issuesOf(() =>
        new FlowStateGraph(TradingState)
          .addNode("a", noop)
          .addNode("island", noop)
          .addEdge(START, "a")
          .addEdge("a", END)
          .addEdge("island", END)
          .compile(),
      );
      expect(issues).toEqual([{ code: "unreachable", nodes: ["island"] }]);
    });

    it("nodes with no path to END, through edges or declared conditional targets", () => {
      const issues = issuesOf(() =>
        new FlowStateGraph(TradingState)
          .addNode("a", noop)
          .addNode("dead_end", noop)
          .addNode("spin1", noop)
          .addNode("spin2", noop)
          .addEdge(START, "a")
          .addConditionalEdges("a", () => END, ["dead_end", "spin1", END])
          .addEdge("spin1", "spin2")
          .addConditionalEdges("spin2", () => "spin1", ["spin1"])
          .compile(),
      );
      expect(issues).toEqual([
        { code: "no_path_to_end", nodes: ["dead_end"] },
        { code: "no_path_to_end", nodes: ["spin1"] },
        { code: "no_path_to_end", nodes: ["spin2"] },
      ]);
    });

    it("a graph without an entry", () => {
      const issues = issuesOf(() =>
        new FlowStateGraph(TradingState).addNode("a", noop).addEdge("a", END).compile(),
      );
      expect(issues).toEqual([
        { code: "no_entry", nodes: ["__start__"] },
        { code: "unreachable", nodes: ["a"] },
      ]);
    });

    it("two different nodes with one name", () => {
      const first = node("twin", noop);
      const second = node("twin", noop);
      const issues = issuesOf(() =>
        new FlowStateGraph(TradingState)
          .addFlow([START.to(first), START.to(second), first.to(END)])
          .compile(),
      );
      expect(issues).toEqual([{ code: "duplicate_name", nodes: ["twin"] }]);
      const viaAddNode = issuesOf(() =>
        new FlowStateGraph(TradingState)
          .addNode("twin", noop)
          .addNode("twin", noop)
          .addFlow([START.to("twin").to(END)])
          .compile(),
      );
      expect(viaAddNode).toEqual([{ code: "duplicate_name", nodes: ["twin"] }]);
    });

    it("reserved and empty names", () => {
      const issues = issuesOf(() =>
        new FlowStateGraph(TradingState)
          .addNode("__start__", noop)
          .addNode("__end__", noop)
          .addNode("", noop)
          .addNode("a", noop)
          .addFlow([START.to("a").to(END)])
          .compile(),
      );
      expect(issues).toEqual([
        { code: "reserved_name", nodes: ["__start__"] },
        { code: "reserved_name", nodes: ["__end__"] },
        { code: "reserved_name", nodes: [""] },
      ]);
    });

    it("conditional edges from unknown nodes or declaring unknown targets", () => {
      const issues = issuesOf(() =>
        new FlowStateGraph(TradingState)
          .addNode("a", noop)
          .addEdge(START, "a")
          .addConditionalEdges("a", () => END, { yes: "nowhere", no: END })
          .addConditionalEdges("ghost", () => END)
          .compile(),
      );
      expect(issues).toEqual([
        { code: "unknown_node", nodes: ["nowhere"] },
        { code: "unknown_node", nodes: ["ghost"] },
      ]);
    });

    it("with one error listing every problem, naming the nodes", () => {
      const build = () =>
        new FlowStateGraph(TradingState)
          .addNode("a", noop)
          .addNode("orphan", noop)
          .addEdge(START, "a")
          .addEdge("a", "missing")
          .compile();
      expect(build).toThrow(GraphValidationError);
      expect(build).toThrow(/"missing"[\s\S]*"orphan" is not reachable[\s\S]*"orphan" has no path/);
    });
  });

  it("accepts a conditional edge without declared targets as able to reach anything", () => {
    expect(() =>
      new FlowStateGraph(TradingState)
        .addNode("a", noop)
        .addNode("b", noop)
        .addEdge(START, "a")
        .addConditionalEdges("a", () => "b")
        .addConditionalEdges("b", () => END)
        .compile(),
    ).not.toThrow();
  });

  it("requires a function when a node is added by name", () => {
    const graph = new FlowStateGraph(TradingState);
    expect(() => graph.addNode("a", undefined as never)).toThrow(/needs the node's function/);
  });
});
