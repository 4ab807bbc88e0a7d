import {
  appendReducer,
  type Checkpointer,
  defineState,
  END,
  FlowStateGraph,
  reducer,
  START,
} from "@framework/graph";
import { z } from "zod";

/** A small crew-shaped graph: `plan`, then `market` and `crypto` in parallel, then `report`. */
export function buildTestGraph(
  checkpointer: Checkpointer,
  node: (name: string) => Promise<void> | void = () => undefined,
) {
  const State = defineState({
    log: reducer(z.array(z.string()), appendReducer, () => []),
    report: z.string().optional(),
  });
  const step = (name: string) => async () => {
    await node(name);
    return { log: `${name} done` };
  };
  return new FlowStateGraph(State)
    .addNode("plan", step("plan"))
    .addNode("market", step("market"))
    .addNode("crypto", step("crypto"))
    .addNode("report", async () => {
      await node("report");
      return { log: "report done", report: "final" };
    })
    .addEdge(START, "plan")
    .addEdge("plan", "market")
    .addEdge("plan", "crypto")
    .addEdge("market", "report")
    .addEdge("crypto", "report")
    .addEdge("report", END)
    .compile({ checkpointer });
}
