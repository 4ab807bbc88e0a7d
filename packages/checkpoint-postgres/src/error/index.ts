export { PostgresFencedError } from "./postgres-fenced-error.js";
export { PostgresSaverError } from "./postgres-saver-error.js";
export { PostgresSchemaVersionError } from "./postgres-schema-version-error.js";
export { PostgresStatementTimeoutError } from "./postgres-statement-timeout-error.js";
export { PostgresUnavailableError } from "./postgres-unavailable-error.js";
