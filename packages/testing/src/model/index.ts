export {
  type LLMRateLimitFaultOptions,
  llmHangFault,
  llmMalformedBodyFault,
  llmRateLimitFault,
  llmResponseFormatRefusalFault,
  llmServerErrorFault,
  llmStreamCutFault,
} from "./fake-llm-faults.js";
export { type FakeLLMContentFormat, openAIErrorBody } from "./fake-llm-responses.js";
export {
  type FakeLLMReply,
  type FakeLLMServer,
  type StartFakeLLMServerOptions,
  startFakeLLMServer,
} from "./fake-llm-server.js";
export {
  type MockCallRecord,
  MockChatModel,
  type MockChatModelOptions,
  type MockReply,
} from "./mock-chat-model.js";
export type {
  OpenAIChatRequestBody,
  OpenAIWireMessage,
  OpenAIWireTool,
  OpenAIWireToolCall,
  OpenAIWireUsage,
} from "./openai-wire.js";
export {
  mockToolCall,
  type ScriptedAnswer,
  type ScriptedReply,
  type ScriptedReplyValue,
  type ScriptedToolCall,
} from "./scripted-reply.js";
