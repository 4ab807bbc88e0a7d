export {
  type CheckpointerConformanceInit,
  checkpointAt,
  runCheckpointerConformance,
} from "./checkpoint/conformance/index.js";
