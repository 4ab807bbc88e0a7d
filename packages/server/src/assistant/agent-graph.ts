import { createHash } from "node:crypto";
import type { Agent, ChatMessage } from "@framework/core";
import {
  appendReducer,
  type CompiledGraph,
  defineState,
  END,
  FlowStateGraph,
  type NodeContext,
  reducer,
  START,
  type StateDefinition,
  type ToolApprovalInterrupt,
} from "@framework/graph";
import { z } from "zod";
import { type StoredMessage, storedMessageSchema } from "./wire-message.js";

/** The name of the one node of an agent's graph, as events and drawings show it. */
export const AGENT_NODE = "agent";

/** The state of an agent's thread: its conversation, oldest first. */
export const agentState = defineState({
  messages: reducer(z.array(storedMessageSchema), appendReducer<StoredMessage>, () => []),
});

/**
 * The id of the assistant message an agent writes in `step` (from 1) of one node visit of a
 * run: the same for the message streamed token by token and the message kept in the thread,
 * so a client merges the two.
 */
export function agentMessageId(runId: string, node: string, visit: number, step: number): string {
  const digest = createHash("sha256").update(`${runId}\0${node}\0${visit}`).digest("hex");
  return `msg-${digest.slice(0, 24)}-${step}`;
}

/**
 * An agent as a one-node graph over its conversation, so that a served agent has threads,
 * checkpoints, resumable runs and durable approvals exactly as a graph does. Each run appends
 * the input messages, asks the agent with the whole conversation, and appends what the agent
 * added; a tool marked `needsApproval` interrupts the run with the same
 * {@link ToolApprovalInterrupt} an `AgentNode` uses, answered by `resume(true | false)`.
 */
export function agentGraph(agent: Agent): CompiledGraph<StateDefinition> {
  const graph = new FlowStateGraph(agentState);
  graph.addNode(AGENT_NODE, async (state, context) => ({
    messages: await converse(agent, state.messages, context),
  }));
  graph.addEdge(START, AGENT_NODE);
  graph.addEdge(AGENT_NODE, END);
  return graph.compile() as unknown as CompiledGraph<StateDefinition>;
}

async function converse(
  agent: Agent,
  conversation: readonly StoredMessage[],
  context: NodeContext,
): Promise<StoredMessage[]> {
  const configurable = context.config.configurable ?? {};
  const userId = configurable.user_id;
  const result = await agent.invoke(conversation.map(withoutId), {
    signal: context.signal,
    ...(typeof userId === "string" ? { userId } : {}),
    onEvent: context.agentEvent,
    approveToolCall: (call) =>
      context.interrupt<boolean>({ type: "tool-approval", call } satisfies ToolApprovalInterrupt),
  });
  const runId = String(configurable.run_id ?? "");
  let step = 0;
  return result.messages.slice(conversation.length).map((message): StoredMessage => {
    if (message.role === "assistant") {
      step += 1;
      return { ...message, id: agentMessageId(runId, context.nodeName, context.visit, step) };
    }
    if (message.role === "tool") return { ...message, id: `tool-${message.toolCallId}` };
    return { ...message, id: `${context.idempotencyKey}-${step}` };
  });
}

function withoutId({ id: _id, ...message }: StoredMessage): ChatMessage {
  return message as ChatMessage;
}
