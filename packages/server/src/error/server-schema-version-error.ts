import { FrameworkError } from "@framework/core";

const name = "ServerSchemaVersionError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The server's database was written by a newer `@framework/server`: this one does not know its
 * schema and leaves it untouched. Upgrade the package, or point the server at another file.
 */
export class ServerSchemaVersionError extends FrameworkError {
  private readonly [symbol] = true;

  /** The database file. */
  declare readonly path: string;
  /** The schema version the file has. */
  declare readonly found: number;
  /** The newest version this package knows. */
  declare readonly supported: number;

  constructor(options: { path: string; found: number; supported: number }) {
    super({
      name,
      message: `The server database ${options.path} has schema version ${options.found}, newer than this @framework/server knows (${options.supported}): upgrade the package`,
      fields: { path: options.path, found: options.found, supported: options.supported },
    });
  }

  static override isInstance(error: unknown): error is ServerSchemaVersionError {
    return FrameworkError.hasMarker(error, marker);
  }
}
