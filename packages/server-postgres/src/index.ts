export { PostgresServerStore, type PostgresServerStoreOptions } from "./postgres-server-store.js";
