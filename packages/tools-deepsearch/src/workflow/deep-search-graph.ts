import { END, FlowStateGraph, START } from "@framework/graph";
import { createGenerateNode } from "../nodes/generate.js";
import type { NodeDependencies } from "../nodes/node-dependencies.js";
import { createPlannerNode } from "../nodes/planner.js";
import { createReflectNode } from "../nodes/reflect.js";
import { createResearchCritiqueNode } from "../nodes/research-critique.js";
import { withStepLog } from "../nodes/step-log.js";
import { AgentState } from "../state/agent-state.js";

/**
 * The deep-search workflow, uncompiled: `START → planner → generate`; after `generate`, `END`
 * once `current_chapter_order` reaches `number_of_chapters`, else `reflect →
 * research_critique → generate`. Each node logs its step line (`Agent name: <node> : <update>`).
 */
export function createDeepSearchGraph(
  dependencies: NodeDependencies,
): FlowStateGraph<typeof AgentState> {
  return new FlowStateGraph(AgentState)
    .addNode("planner", withStepLog("planner", createPlannerNode(dependencies)))
    .addNode("generate", withStepLog("generate", createGenerateNode(dependencies)))
    .addNode("reflect", withStepLog("reflect", createReflectNode(dependencies)))
    .addNode(
      "research_critique",
      withStepLog("research_critique", createResearchCritiqueNode(dependencies)),
    )
    .addEdge(START, "planner")
    .addEdge("planner", "generate")
    .addConditionalEdges(
      "generate",
      (state) => (state.current_chapter_order >= state.number_of_chapters ? END : "reflect"),
      ["reflect", END],
    )
    .addEdge("reflect", "research_critique")
    .addEdge("research_critique", "generate");
}
