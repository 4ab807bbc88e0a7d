export {
  type CheckpointerConformanceInit,
  checkpointAt,
} from "./conformance-context.js";
export { runCheckpointerConformance } from "./run-checkpointer-conformance.js";
