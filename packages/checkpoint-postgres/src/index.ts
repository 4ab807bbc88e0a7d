export {
  PostgresSaverError,
  PostgresSchemaVersionError,
  PostgresStatementTimeoutError,
  PostgresUnavailableError,
} from "./error/index.js";
export { PostgresSaver, type PostgresSaverOptions } from "./postgres-saver.js";
