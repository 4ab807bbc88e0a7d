/**
 * The conformance suite every `ServerStore` must pass, for stores other than the embedded
 * SQLite one (a Postgres store, a test double). Needs vitest.
 *
 * @packageDocumentation
 */
export {
  pendingRun,
  runServerStoreConformance,
  type ServerStoreConformanceInit,
  type StoreConformanceContext,
} from "./store/conformance/index.js";
