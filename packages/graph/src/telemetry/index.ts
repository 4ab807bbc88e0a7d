export { GRAPH_TRACER_NAME, GraphAttribute } from "./graph-tracing.js";
