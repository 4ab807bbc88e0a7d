import { FrameworkError } from "./framework-error.js";

const name = "ToolModuleError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** A tool module could not be resolved or imported, or exports no tool. */
export class ToolModuleError extends FrameworkError {
  private readonly [symbol] = true;

  /** The specifier as given, e.g. `"@framework/tools-papers"` or `"./my-tools.js"`. */
  declare readonly modulePath: string;
  /** The directory the specifier was resolved from. */
  declare readonly cwd: string;

  constructor({
    modulePath,
    cwd,
    message,
    cause,
  }: { modulePath: string; cwd: string; message: string; cause?: unknown }) {
    super({ name, message, cause, fields: { modulePath, cwd } });
  }

  static override isInstance(error: unknown): error is ToolModuleError {
    return FrameworkError.hasMarker(error, marker);
  }
}
