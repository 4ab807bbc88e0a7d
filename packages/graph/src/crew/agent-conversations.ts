import type { ChatMessage } from "@framework/core";
import { z } from "zod";
import { type Reducer, reducer } from "../state/reducer.js";

/** Each memory-keeping `AgentNode`'s conversation, by node name. */
export type AgentConversations = Record<string, ChatMessage[]>;

// Checked as far as the graph relies on it; the agent validates what it sends to the model.
const chatMessage = z.custom<ChatMessage>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    ["system", "user", "assistant", "tool"].includes((value as { role?: unknown }).role as string),
  { message: "expected a chat message ({ role, content })" },
);

const conversationsSchema = z.record(z.string(), z.array(chatMessage));

/**
 * The state key where `AgentNode`s created with `memory: true` keep their conversations, one
 * per node; being graph state, it is saved per thread by the checkpointer. A node's write
 * replaces its own conversation and leaves the others'.
 *
 * @example
 * const State = defineState({ messages: ..., conversations: agentConversations() });
 */
export function agentConversations(): Reducer<typeof conversationsSchema, AgentConversations> {
  return reducer(
    conversationsSchema,
    (current, update: AgentConversations) => ({ ...current, ...update }),
    () => ({}),
  );
}
