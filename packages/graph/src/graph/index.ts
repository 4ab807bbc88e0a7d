export {
  CompiledGraph,
  type CompileOptions,
  DEFAULT_STEP_LIMIT,
  type GraphDrawing,
  LATEST_STATE_CACHE_THREADS,
  type StateHistoryOptions,
} from "./compiled-graph.js";
export { type AnyGraphNode, type Edge, EdgeChain, type NodeRef } from "./edge-chain.js";
export { END, END_NAME, EndEndpoint, START, START_NAME, StartEndpoint } from "./endpoints.js";
export { FlowStateGraph } from "./flow-state-graph.js";
export { DEFAULT_THREAD_ID, type GraphConfig, type GraphConfigurable } from "./graph-config.js";
export type { PathMap, RouteResult, Router, RouterContext } from "./router.js";
