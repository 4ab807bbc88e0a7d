export {
  type ConformanceOptions,
  runCheckpointerConformance,
} from "./checkpoint/checkpointer-conformance.js";
