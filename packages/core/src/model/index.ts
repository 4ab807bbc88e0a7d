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
  type ModelRetry,
  type ModelToolCall,
  type ResponseFormat,
  type SystemMessage,
  type ToolDefinition,
  type ToolMessage,
  type Usage,
  type UserMessage,
} from "./chat-model.js";
export { OpenAIChatModel, type OpenAIChatModelOptions } from "./openai-chat-model.js";
export {
  abortableDelay,
  backoffDelayMs,
  parseRetryAfter,
  type RetryAdvice,
  type RetryPolicy,
  retryWithBackoff,
} from "./retry.js";
export { type StructuredOutputsMode, structuredOutputsModes } from "./structured-outputs.js";
