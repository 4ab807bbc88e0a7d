export { type AgentConversations, agentConversations } from "./agent-conversations.js";
export { AgentNode, type AgentNodeOptions, type ToolApprovalInterrupt } from "./agent-node.js";
export { CrewAgent, type CrewAgentOptions, type CrewInvokeOptions } from "./crew-agent.js";
