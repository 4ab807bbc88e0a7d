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
  readonly path: string;
  readonly problem: RegistryFileProblem;

  constructor({
    path,
    problem,
    message,
    cause,
  }: { path: string; problem: RegistryFileProblem; message: string; cause?: unknown }) {
    super({ name, message, cause });
    this.path = path;
    this.problem = problem;
  }

  static override isInstance(error: unknown): error is RegistryFileError {
    return FrameworkError.hasMarker(error, marker);
  }
}
