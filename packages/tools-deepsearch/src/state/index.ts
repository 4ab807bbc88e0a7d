export { AgentState, type AgentStateUpdate } from "./agent-state.js";
export { type DeepSearchLimits, defaultDeepSearchLimits } from "./run-input.js";
