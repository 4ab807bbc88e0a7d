export {
  Agent,
  type AgentOptions,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_TOOL_CALLS_PER_REPLY,
  type InvokeOptions,
} from "./agent.js";
export type { AgentFinishReason, AgentResult, AgentToolCall } from "./agent-result.js";
export type { ToolCallingMode } from "./prompt.js";
