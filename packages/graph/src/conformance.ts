export {
  type CheckpointerConformanceInit,
  checkpointAt,
  runCheckpointerConformance,
} from "./conformance/index.js";
