export { SqliteBusyError, SqliteSaverError, SqliteSchemaVersionError } from "./error/index.js";
export { SqliteSaver, type SqliteSaverOptions } from "./sqlite-saver.js";
