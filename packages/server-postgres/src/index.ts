export { ThreadLeaseLostError } from "./error/thread-lease-lost-error.js";
export {
  DEFAULT_LEASE_TIMEOUT_MS,
  PostgresServerStore,
  type PostgresServerStoreOptions,
} from "./postgres-server-store.js";
