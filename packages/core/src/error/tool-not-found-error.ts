import { FrameworkError } from "./framework-error.js";

const name = "ToolNotFoundError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** A tool call named a tool this agent has not registered. Nothing ran. */
export class ToolNotFoundError extends FrameworkError {
  private readonly [symbol] = true;

  /** The name the call asked for. */
  declare readonly toolName: string;
  /** The names the agent could have called. */
  declare readonly availableTools: string[];

  constructor({ toolName, availableTools }: { toolName: string; availableTools: string[] }) {
    super({
      name,
      message: `Unknown tool "${toolName}". Available tools: ${availableTools.join(", ") || "none"}.`,
      fields: { toolName, availableTools },
    });
  }

  static override isInstance(error: unknown): error is ToolNotFoundError {
    return FrameworkError.hasMarker(error, marker);
  }
}
