import { FrameworkError } from "./framework-error.js";

const name = "RegistryFileError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** What went wrong with the tool registry file. */
export type RegistryFileProblem = "corrupt" | "locked" | "io";

/**
 * The tool registry file could not be read or written. A corrupt file is never
 * overwritten: the message names the path and says how to recover.
 */
export class RegistryFileError extends FrameworkError {
  private readonly [symbol] = true;

  /** Absolute path of the registry file. */
  declare readonly path: string;
  /** What went wrong; see {@link RegistryFileProblem}. */
  declare readonly problem: RegistryFileProblem;
  /** The tool name of the record at fault, when one record is. */
  declare readonly record?: string;

  constructor({
    path,
    problem,
    message,
    record,
    cause,
  }: {
    path: string;
    problem: RegistryFileProblem;
    message: string;
    record?: string;
    cause?: unknown;
  }) {
    super({ name, message, cause, fields: { path, problem, record } });
  }

  static override isInstance(error: unknown): error is RegistryFileError {
    return FrameworkError.hasMarker(error, marker);
  }
}
