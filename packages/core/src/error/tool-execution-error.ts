import { errorMessage } from "./error-message.js";
import { FrameworkError } from "./framework-error.js";

const name = "ToolExecutionError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A tool threw while running. `cause` holds what it threw; the message, which the model is
 * sent, repeats its message with secrets redacted.
 */
export class ToolExecutionError extends FrameworkError {
  private readonly [symbol] = true;

  /** The tool that threw. */
  declare readonly toolName: string;

  constructor({ toolName, cause }: { toolName: string; cause: unknown }) {
    const reason = errorMessage(cause);
    super({ name, message: `Tool "${toolName}" failed: ${reason}`, cause, fields: { toolName } });
  }

  static override isInstance(error: unknown): error is ToolExecutionError {
    return FrameworkError.hasMarker(error, marker);
  }
}
