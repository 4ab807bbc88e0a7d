export {
  CompiledGraph,
  type CompileOptions,
  DEFAULT_STEP_LIMIT,
  type GraphDrawing,
  LATEST_STATE_CACHE_THREADS,
  type StateHistoryOptions,
} from "./compiled-graph.js";
export { FlowStateGraph } from "./flow-state-graph.js";
