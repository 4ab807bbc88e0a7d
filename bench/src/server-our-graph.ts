// Our side of item 11: the graph our server serves, apart from LangGraph.js's so that our
// server's child process loads neither LangGraph.js nor the bench's harness.
import { appendReducer, defineState, END, FlowStateGraph, reducer, START } from "@framework/graph";
import { z } from "zod";

const Message = z.object({ role: z.string(), content: z.string() });

const PairState = defineState({
  messages: reducer(z.array(Message), appendReducer, () => []),
  rounds: z.number().default(1),
  round: z.number().default(0),
  draft: z.string().optional(),
  approved: z.boolean().optional(),
});

/**
 * The two-node graph both servers serve: `write` drafts an answer to the last message and
 * `review` approves it, `rounds` times over (one round is a `runs.wait` run of two steps,
 * five rounds the streamed run of ten). Compiled without a checkpointer: the server binds
 * its own.
 */
export function ourPairGraph() {
  return new FlowStateGraph(PairState)
    .addNode("write", (state) => ({
      draft: `draft for: ${state.messages.at(-1)?.content ?? ""}`,
      round: state.round + 1,
    }))
    .addNode("review", () => ({
      approved: true,
      messages: [{ role: "reviewer", content: "approved" }],
    }))
    .addEdge(START, "write")
    .addEdge("write", "review")
    .addConditionalEdges("review", (state) => (state.round < state.rounds ? "write" : END), [
      "write",
      END,
    ])
    .compile();
}

/** The input of a run of `rounds` rounds: one user message. */
export const runInput = (rounds: number) => ({
  messages: [{ role: "user", content: "hello" }],
  rounds,
});
