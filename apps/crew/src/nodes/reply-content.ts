import type { AgentResult } from "@framework/core";

/**
 * A node's `messages` content: the reply's `content`, or its string form when there is none
 * (as the specification says), so that an empty answer is still visible in the state.
 */
export function replyContent(reply: AgentResult): string {
  if (reply.content) return reply.content;
  return `(no answer text; finish reason: ${reply.finishReason}, tool calls: ${reply.toolCalls.length})`;
}

/** The trader's latest request in the crew's messages. */
export function latestQuery(messages: ReadonlyArray<{ role: string; content: string }>): string {
  return messages.findLast((message) => message.role === "user")?.content ?? "";
}
