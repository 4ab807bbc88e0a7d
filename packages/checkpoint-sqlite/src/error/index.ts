export { SqliteBusyError } from "./sqlite-busy-error.js";
export { SqliteSaverError } from "./sqlite-saver-error.js";
export { SqliteSchemaVersionError } from "./sqlite-schema-version-error.js";
