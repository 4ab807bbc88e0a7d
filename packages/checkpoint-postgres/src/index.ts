export {
  PostgresFencedError,
  PostgresSaverError,
  PostgresSchemaVersionError,
  PostgresStatementTimeoutError,
  PostgresUnavailableError,
} from "./error/index.js";
export {
  type PostgresFence,
  PostgresSaver,
  type PostgresSaverOptions,
} from "./postgres-saver.js";
