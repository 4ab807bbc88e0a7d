export { Agent, type AgentOptions, DEFAULT_MAX_ITERATIONS, type InvokeOptions } from "./agent.js";
export type { AgentFinishReason, AgentResult, AgentToolCall } from "./agent-result.js";
export type { ToolCallingMode } from "./prompt.js";
