import { FrameworkError } from "./framework-error.js";

const name = "ToolExecutionError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** A tool threw while running. `cause` holds what it threw. */
export class ToolExecutionError extends FrameworkError {
  private readonly [symbol] = true;

  readonly toolName: string;

  constructor({ toolName, cause }: { toolName: string; cause: unknown }) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super({ name, message: `Tool "${toolName}" failed: ${reason}`, cause });
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is ToolExecutionError {
    return FrameworkError.hasMarker(error, marker);
  }
}
