export {
  DEFAULT_TOOL_TIMEOUT_MS,
  type ExecutableTool,
  type ExecuteToolOptions,
  executeTool,
  type ToolCatalogue,
  type ToolExecution,
} from "./execute-tool.js";
export { parseJsonToolCalls } from "./json-tool-call-parser.js";
export {
  type AnyPrimaryFunction,
  getToolSpec,
  isPrimaryFunction,
  type PrimaryFunction,
  parseToolArguments,
  primaryFunction,
  type ToolContext,
  type ToolMeta,
  type ToolParameters,
  type ToolSpec,
} from "./primary-function.js";
export { normalizeToolArguments } from "./tool-arguments.js";
export type { PendingToolCall, ToolCall } from "./tool-call.js";
export {
  capText,
  defaultToolOutputLimits,
  renderToolOutput,
  type ToolOutputLimits,
} from "./tool-output.js";
export {
  createToolRecord,
  INLINE_MODULE_PATH,
  jsonSchemaTypeName,
  RUNTIME_MODULE_PATH,
  type ToolOrigin,
  type ToolRecord,
  type ToolType,
  toolInputJsonSchema,
  toolParametersJsonSchema,
} from "./tool-record.js";
