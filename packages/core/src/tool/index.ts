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
  jsonSchemaTypeName,
  RUNTIME_MODULE_PATH,
  type ToolOrigin,
  type ToolRecord,
  type ToolType,
  toolInputJsonSchema,
  toolParametersJsonSchema,
} from "./tool-record.js";
