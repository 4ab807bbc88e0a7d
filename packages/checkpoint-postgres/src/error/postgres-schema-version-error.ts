import { FrameworkError } from "@framework/core";

const name = "PostgresSchemaVersionError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The checkpoint schema was migrated by a newer `@framework/checkpoint-postgres` whose tables
 * this version does not know. Nothing is changed: upgrade the package.
 */
export class PostgresSchemaVersionError extends FrameworkError {
  private readonly [symbol] = true;

  /** The Postgres schema holding the checkpoint tables. */
  declare readonly schema: string;
  /** The schema version found. */
  declare readonly found: number;
  /** The newest schema version this package knows. */
  declare readonly supported: number;

  constructor(options: { schema: string; found: number; supported: number }) {
    super({
      name,
      message:
        `Checkpoint schema "${options.schema}" is at version ${options.found}, newer than ` +
        `${options.supported}, the newest this @framework/checkpoint-postgres knows: upgrade it`,
      fields: { schema: options.schema, found: options.found, supported: options.supported },
    });
  }

  static override isInstance(error: unknown): error is PostgresSchemaVersionError {
    return FrameworkError.hasMarker(error, marker);
  }
}
