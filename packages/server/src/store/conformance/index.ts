export {
  pendingRun,
  type ServerStoreConformanceInit,
  type StoreConformanceContext,
} from "./conformance-context.js";
export { runServerStoreConformance } from "./run-server-store-conformance.js";
