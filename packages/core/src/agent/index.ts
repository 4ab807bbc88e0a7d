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
export type { AgentFinishReason, AgentResult, AgentToolCall } from "./agent-result.js";
export { EventChannel } from "./event-channel.js";
export { eventStream } from "./event-stream.js";
export type { ToolCallingMode } from "./prompt.js";
