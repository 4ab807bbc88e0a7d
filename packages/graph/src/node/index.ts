export { type Edge, EdgeChain, type NodeRef } from "./edge-chain.js";
export { END, END_NAME, EndEndpoint, START, START_NAME, StartEndpoint } from "./endpoints.js";
export { FunctionNode, type NodeFunction, node } from "./function-node.js";
export { type AnyGraphNode, GraphNode, type NodeContext, type NodeResult } from "./graph-node.js";
