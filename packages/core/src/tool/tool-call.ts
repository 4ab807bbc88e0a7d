import type { ToolType } from "./tool-record.js";

/**
 * A tool call in the specification's shape, as logged and as written by a model in JSON
 * mode. Native function calls are converted to this shape, taking `tool_type` and
 * `module_path` from the tool's record.
 */
export interface ToolCall {
  tool_name: string;
  tool_type?: ToolType;
  module_path?: string;
  /** Argument name to value. A model may send anything here; it is validated before use. */
  arguments: unknown;
}

/** A tool call waiting to run, with the id its result is reported under. */
export interface PendingToolCall {
  /** The provider's call id (native mode) or a generated one (JSON mode). */
  id: string;
  call: ToolCall;
}
