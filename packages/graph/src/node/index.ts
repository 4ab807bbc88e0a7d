export { FunctionNode, type NodeFunction, node } from "./function-node.js";
export { GraphNode, type NodeContext, type NodeResult } from "./graph-node.js";
