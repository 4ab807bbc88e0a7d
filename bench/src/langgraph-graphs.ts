// LangGraph.js's graphs of items 2a and 2b, apart from ours so that a child process running
// one of them (item 7g) loads neither our packages nor the bench's harness.
import {
  Annotation,
  MemorySaver as LangGraphMemorySaver,
  END as LG_END,
  START as LG_START,
  StateGraph,
} from "@langchain/langgraph";
import { expectEqual, type GraphRun, nodeNames } from "./graph-run.js";

/** 2a, LangGraph.js: the same chain as a `StateGraph` with its `MemorySaver`. */
export function langGraphChain(length: number): GraphRun {
  const State = Annotation.Root({ count: Annotation<number> });
  const names = nodeNames("n", length);
  const graph = new StateGraph(State).addNode(
    names.map((name): [string, (state: typeof State.State) => typeof State.Update] => [
      name,
      (state) => ({ count: state.count + 1 }),
    ]),
  );
  graph.addEdge(LG_START, names[0]!);
  for (let index = 1; index < length; index++) graph.addEdge(names[index - 1]!, names[index]!);
  graph.addEdge(names[length - 1]!, LG_END);
  const app = graph.compile({ checkpointer: new LangGraphMemorySaver() });
  return async (threadId) => {
    const state = await app.invoke(
      { count: 0 },
      { configurable: { thread_id: threadId }, recursionLimit: length + 1 },
    );
    expectEqual("LangGraph chain's counter", state.count, length);
  };
}

/** 2b, LangGraph.js: the same fan-out; all branches share one superstep, the join the next. */
export function langGraphFanOut(width: number): GraphRun {
  const State = Annotation.Root({
    results: Annotation<number[]>({
      reducer: (current, update) => current.concat(update),
      default: () => [],
    }),
    total: Annotation<number>,
  });
  const names = nodeNames("f", width);
  const graph = new StateGraph(State).addNode([
    ...names.map((name, index): [string, () => typeof State.Update] => [
      name,
      () => ({ results: [index] }),
    ]),
    ["join", (state: typeof State.State) => ({ total: state.results.length })],
  ]);
  for (const name of names) {
    graph.addEdge(LG_START, name);
    graph.addEdge(name, "join");
  }
  graph.addEdge("join", LG_END);
  const app = graph.compile({ checkpointer: new LangGraphMemorySaver() });
  return async (threadId) => {
    const state = await app.invoke({ results: [] }, { configurable: { thread_id: threadId } });
    expectEqual("LangGraph join's total", state.total, width);
  };
}
