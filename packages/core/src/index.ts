export { AbortedError } from "./error/aborted-error.js";
export { AuthenticationError, type AuthenticationFailure } from "./error/authentication-error.js";
export { ConfigurationError } from "./error/configuration-error.js";
export { FrameworkError, type FrameworkErrorOptions } from "./error/framework-error.js";
export { type ToolArgumentIssue, ToolArgumentsError } from "./error/tool-arguments-error.js";
export {
  type ConsoleLoggerOptions,
  createConsoleLogger,
  getDefaultLogger,
  type Logger,
  type LogLevel,
  setDefaultLogger,
  silentLogger,
  withRedaction,
} from "./log/logger.js";
export { redactSecrets, registerSecret } from "./log/redact.js";
export {
  type AssistantMessage,
  addUsage,
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamPart,
  emptyUsage,
  type JsonSchema,
  type ModelFinishReason,
  type ModelToolCall,
  type SystemMessage,
  type ToolDefinition,
  type ToolMessage,
  type Usage,
  type UserMessage,
} from "./model/chat-model.js";
export {
  getToolSpec,
  isPrimaryFunction,
  type PrimaryFunction,
  parseToolArguments,
  primaryFunction,
  type ToolContext,
  type ToolMeta,
  type ToolParameters,
  type ToolSpec,
} from "./tool/primary-function.js";
