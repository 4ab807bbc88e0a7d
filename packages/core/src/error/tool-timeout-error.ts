import { FrameworkError } from "./framework-error.js";

const name = "ToolTimeoutError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A tool did not finish within its time limit (the tool's `timeoutMs`, else the agent's
 * `toolTimeoutMs`). Its signal was aborted and the model was sent this error as the result;
 * whatever the tool still does afterwards is ignored.
 */
export class ToolTimeoutError extends FrameworkError {
  private readonly [symbol] = true;

  /** The tool that ran out of time. */
  declare readonly toolName: string;
  /** The limit that expired, in milliseconds. */
  declare readonly timeoutMs: number;

  constructor({ toolName, timeoutMs }: { toolName: string; timeoutMs: number }) {
    super({
      name,
      message: `Tool "${toolName}" did not finish within ${timeoutMs} ms.`,
      fields: { toolName, timeoutMs },
    });
  }

  static override isInstance(error: unknown): error is ToolTimeoutError {
    return FrameworkError.hasMarker(error, marker);
  }
}
