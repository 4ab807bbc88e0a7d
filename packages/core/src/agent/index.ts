export {
  Agent,
  type AgentOptions,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_TOOL_CALLS_PER_REPLY,
  type InvokeOptions,
} from "./agent.js";
export type {
  AgentFinishReason,
  AgentResult,
  AgentToolCall,
  StructuredAgentResult,
} from "./agent-result.js";
export type { ToolCallingMode } from "./prompt.js";
export type { OutputSchema } from "./structured-output.js";
export type { ApproveToolCall, ToolApprovalRequest } from "./tool-approval.js";
