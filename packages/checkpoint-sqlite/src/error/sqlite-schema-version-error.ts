import { FrameworkError } from "@framework/core";

const name = "SqliteSchemaVersionError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The checkpoint database was written by a newer `@framework/checkpoint-sqlite` whose schema
 * this version does not know. The file is left untouched: upgrade the package to open it.
 */
export class SqliteSchemaVersionError extends FrameworkError {
  private readonly [symbol] = true;

  /** The database file. */
  declare readonly path: string;
  /** The schema version the file has. */
  declare readonly found: number;
  /** The newest schema version this package knows. */
  declare readonly supported: number;

  constructor(options: { path: string; found: number; supported: number }) {
    super({
      name,
      message:
        `Checkpoint database "${options.path}" has schema version ${options.found}, newer than ` +
        `${options.supported}, the newest this @framework/checkpoint-sqlite knows: upgrade it`,
      fields: { path: options.path, found: options.found, supported: options.supported },
    });
  }

  static override isInstance(error: unknown): error is SqliteSchemaVersionError {
    return FrameworkError.hasMarker(error, marker);
  }
}
