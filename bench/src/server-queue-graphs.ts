// The graphs of the server-queue bench, served alike by its instances and workers: `chain`,
// three nodes that do nothing (what is measured is the queue: wake-ups, leases, fenced
// checkpoints and events in Postgres), and `paced`, a loop of steps 40 ms apart whose stream
// keeps going while an instance is killed under its client.
import { defineState, END, FlowStateGraph, START } from "@framework/graph";
import { z } from "zod";

/** Steps of a `paced` run, each 40 ms after the one before. */
export const pacedSteps = 30;

const ChainState = defineState({ trail: z.array(z.string()).default([]) });
const PacedState = defineState({ step: z.number().default(0) });

/** The graphs by the names the bench calls them. */
export function serverQueueGraphs() {
  const chain = new FlowStateGraph(ChainState);
  for (const name of ["a", "b", "c"]) {
    chain.addNode(name, (state) => ({ trail: [...state.trail, name] }));
  }
  chain.addEdge(START, "a").addEdge("a", "b").addEdge("b", "c").addEdge("c", END);

  const paced = new FlowStateGraph(PacedState)
    .addNode("tick", async (state) => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      return { step: state.step + 1 };
    })
    .addEdge(START, "tick")
    .addConditionalEdges("tick", (state) => (state.step < pacedSteps ? "tick" : END), [
      "tick",
      END,
    ]);
  return { chain: chain.compile(), paced: paced.compile() };
}
