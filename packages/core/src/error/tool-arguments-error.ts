import { FrameworkError } from "./framework-error.js";

const name = "ToolArgumentsError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** One reason a tool's arguments were rejected. */
export interface ToolArgumentIssue {
  /** Dotted path of the argument, or `(arguments)` for the object as a whole. */
  path: string;
  message: string;
}

/** A tool was called with arguments that fail its parameter schema. The tool did not run. */
export class ToolArgumentsError extends FrameworkError {
  private readonly [symbol] = true;

  /** The tool whose arguments were rejected. */
  declare readonly toolName: string;
  /** Why the arguments were rejected, one entry per problem. */
  declare readonly issues: ToolArgumentIssue[];

  constructor({ toolName, issues }: { toolName: string; issues: ToolArgumentIssue[] }) {
    const detail = issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
    super({
      name,
      message: `Invalid arguments for tool ${toolName}: ${detail}`,
      fields: { toolName, issues },
    });
  }

  static override isInstance(error: unknown): error is ToolArgumentsError {
    return FrameworkError.hasMarker(error, marker);
  }
}
