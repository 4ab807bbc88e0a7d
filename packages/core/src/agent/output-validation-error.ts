import { FrameworkError } from "../error/framework-error.js";
import type { AgentResult } from "./agent-result.js";

const name = "OutputValidationError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** One reason a structured answer was rejected. */
export interface OutputIssue {
  /** Dotted path of the field, or `(output)` for the answer as a whole. */
  path: string;
  message: string;
}

/**
 * The model's final answer did not match the requested output schema, even after it was sent
 * back once with the problems.
 */
export class OutputValidationError extends FrameworkError {
  private readonly [symbol] = true;

  /** The model's last answer, exactly as it sent it. */
  declare readonly text: string;
  /** Why that answer was rejected. */
  declare readonly issues: OutputIssue[];
  /**
   * The run whose answer was rejected, as `invoke` would have returned it without the
   * schema: its tool calls, usage and conversation (ending with the rejected answer). Set
   * when the error comes from `Agent.invoke`, so a caller can fall back to the text and still
   * use what the run's tools did.
   */
  declare readonly result?: AgentResult;

  constructor({
    text,
    issues,
    result,
  }: { text: string; issues: OutputIssue[]; result?: AgentResult }) {
    const detail = issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
    super({
      name,
      message: `The model's answer does not match the output schema: ${detail}`,
      fields: { text, issues, result },
    });
  }

  static override isInstance(error: unknown): error is OutputValidationError {
    return FrameworkError.hasMarker(error, marker);
  }
}
