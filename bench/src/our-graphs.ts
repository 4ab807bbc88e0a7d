// Our graphs of items 2a and 2b, apart from LangGraph.js's so that a child process running one
// of ours (item 7g) loads neither LangGraph.js nor the bench's harness.
import {
  appendReducer,
  defineState,
  END,
  FlowStateGraph,
  MemorySaver,
  reducer,
  START,
} from "@framework/graph";
import { z } from "zod";
import { expectEqual, type GraphRun, nodeNames } from "./graph-run.js";

/** 2a, ours: a chain of `length` nodes, each adding one to a counter. */
export function ourChain(length: number): GraphRun {
  const State = defineState({ count: z.number().default(0) });
  const graph = new FlowStateGraph(State);
  const names = nodeNames("n", length);
  for (const name of names) graph.addNode(name, (state) => ({ count: state.count + 1 }));
  graph.addEdge(START, names[0]!);
  for (let index = 1; index < length; index++) graph.addEdge(names[index - 1]!, names[index]!);
  graph.addEdge(names[length - 1]!, END);
  const app = graph.compile({ checkpointer: new MemorySaver(), stepLimit: length });
  return async (threadId) => {
    const state = await app.invoke({ count: 0 }, { configurable: { thread_id: threadId } });
    expectEqual("our chain's counter", state.count, length);
  };
}

/** 2b, ours: `width` nodes started from START, each appending to a list, then one join. */
export function ourFanOut(width: number): GraphRun {
  const State = defineState({
    results: reducer(z.array(z.number()), appendReducer, () => []),
    total: z.number().optional(),
  });
  const graph = new FlowStateGraph(State);
  graph.addNode("join", (state) => ({ total: state.results.length }));
  nodeNames("f", width).forEach((name, index) => {
    graph.addNode(name, () => ({ results: index }));
    graph.addEdge(START, name);
    graph.addEdge(name, "join");
  });
  graph.addEdge("join", END);
  const app = graph.compile({ checkpointer: new MemorySaver(), stepLimit: width + 1 });
  return async (threadId) => {
    const state = await app.invoke({ results: [] }, { configurable: { thread_id: threadId } });
    expectEqual("our join's total", state.total, width);
  };
}
