// LangGraph.js's side of item 11: the module its server loads the graph from (bundled into the
// server's working directory as graph.mjs, its imports pointing at the bench's packages).
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";

interface Message {
  readonly role: string;
  readonly content: string;
}

const PairState = Annotation.Root({
  messages: Annotation<Message[]>({
    reducer: (current, update) => current.concat(update),
    default: () => [],
  }),
  rounds: Annotation<number>,
  round: Annotation<number>,
  draft: Annotation<string>,
  approved: Annotation<boolean>,
});

/** The same two-node graph as ours (`server-our-graph.ts`), as a LangGraph `StateGraph`. */
export const pair = new StateGraph(PairState)
  .addNode("write", (state) => ({
    draft: `draft for: ${state.messages.at(-1)?.content ?? ""}`,
    round: (state.round ?? 0) + 1,
  }))
  .addNode("review", () => ({
    approved: true,
    messages: [{ role: "reviewer", content: "approved" }],
  }))
  .addEdge(START, "write")
  .addEdge("write", "review")
  .addConditionalEdges("review", (state) => (state.round < (state.rounds ?? 1) ? "write" : END), [
    "write",
    END,
  ])
  .compile();
