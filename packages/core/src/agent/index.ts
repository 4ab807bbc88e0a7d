export {
  Agent,
  type AgentInput,
  type AgentOptions,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_TOOL_CALLS_PER_REPLY,
  type InvokeOptions,
  type StreamOptions,
} from "./agent.js";
export type { AgentEvent, AgentEventHandler } from "./agent-event.js";
export type {
  AgentFinishReason,
  AgentResult,
  AgentToolCall,
  StructuredAgentResult,
} from "./agent-result.js";
export { EventChannel } from "./event-channel.js";
export { eventStream } from "./event-stream.js";
export { type OutputIssue, OutputValidationError } from "./output-validation-error.js";
export type { ToolCallingMode } from "./prompt.js";
export type { OutputSchema } from "./structured-output.js";
export type { ApproveToolCall, ToolApprovalRequest } from "./tool-approval.js";
