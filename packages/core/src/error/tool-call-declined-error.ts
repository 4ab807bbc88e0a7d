import { FrameworkError } from "./framework-error.js";

const name = "ToolCallDeclinedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A tool that needs approval was not approved: the user declined, or the agent has no
 * `approveToolCall` to ask. The tool did not run; the model is told so and can go on without it.
 */
export class ToolCallDeclinedError extends FrameworkError {
  private readonly [symbol] = true;

  /** The tool that did not run. */
  declare readonly toolName: string;
  /** `false` when nobody could be asked (the agent has no `approveToolCall`). */
  declare readonly asked: boolean;

  constructor({ toolName, asked }: { toolName: string; asked: boolean }) {
    super({
      name,
      message: asked
        ? `The user declined to run tool ${toolName}. Do not call it again for this request; answer without it or ask the user what to do.`
        : `Tool ${toolName} needs the user's approval and nobody could be asked, so it did not run. Answer without it.`,
      fields: { toolName, asked },
    });
  }

  static override isInstance(error: unknown): error is ToolCallDeclinedError {
    return FrameworkError.hasMarker(error, marker);
  }
}
