import { FrameworkError } from "./framework-error.js";

const name = "ToolCallRefusedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A tool call named a `module_path` other than the one its tool was registered from. It is
 * refused without importing anything: a model must never choose what code is loaded.
 */
export class ToolCallRefusedError extends FrameworkError {
  private readonly [symbol] = true;

  /** The tool the call named. */
  declare readonly toolName: string;
  /** The module path the call asked for. */
  declare readonly requestedModulePath: string;
  /** The module path in the tool's record. */
  declare readonly registeredModulePath: string;

  constructor({
    toolName,
    requestedModulePath,
    registeredModulePath,
  }: { toolName: string; requestedModulePath: string; registeredModulePath: string }) {
    super({
      name,
      message: `Refused tool call "${toolName}": module_path "${requestedModulePath}" does not match the registered "${registeredModulePath}".`,
      fields: { toolName, requestedModulePath, registeredModulePath },
    });
  }

  static override isInstance(error: unknown): error is ToolCallRefusedError {
    return FrameworkError.hasMarker(error, marker);
  }
}
