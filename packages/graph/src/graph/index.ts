export {
  CompiledGraph,
  type CompileOptions,
  DEFAULT_STEP_LIMIT,
  type GraphDrawing,
  type GraphInput,
  LATEST_STATE_CACHE_THREADS,
  type StateHistoryOptions,
  type UpdateStateOptions,
} from "./compiled-graph.js";
export { FlowStateGraph } from "./flow-state-graph.js";
