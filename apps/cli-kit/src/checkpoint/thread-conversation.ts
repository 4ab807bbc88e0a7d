import type {
  Agent,
  AgentResult,
  InvokeOptions,
  OutputSchema,
  StructuredAgentResult,
} from "@framework/core";
import {
  agentConversations,
  type Checkpointer,
  defineState,
  END,
  FlowStateGraph,
  START,
} from "@framework/graph";
import type { z } from "zod";

/** Where a conversation is kept: a thread of a checkpoint database. */
export interface ConversationThread {
  readonly id: string;
  readonly checkpointer: Checkpointer;
}

/** Options of {@link invokeOnThread}: those of `agent.invoke`, plus the thread. */
export interface ThreadInvokeOptions extends InvokeOptions {
  thread: ConversationThread;
}

const ConversationState = defineState({ conversations: agentConversations() });

/** The node, and so the key of its conversation in the thread's state. */
const agentNode = "agent";

/**
 * Asks `agent` the `question` as the next turn of the conversation saved on `thread`, and
 * saves the conversation with the answer there: a later run (another process) on the same
 * thread continues it. The conversation is graph state of a one-node graph on the thread's
 * checkpointer, so it is saved exactly when the turn finishes, and a failed turn leaves the
 * saved conversation as it was.
 */
export function invokeOnThread<S extends OutputSchema>(
  agent: Agent,
  question: string,
  options: ThreadInvokeOptions & { output: S },
): Promise<StructuredAgentResult<z.output<S>>>;
export function invokeOnThread(
  agent: Agent,
  question: string,
  options: ThreadInvokeOptions,
): Promise<AgentResult>;
export async function invokeOnThread(
  agent: Agent,
  question: string,
  { thread, ...options }: ThreadInvokeOptions,
): Promise<AgentResult> {
  let answer: AgentResult | undefined;
  const graph = new FlowStateGraph(ConversationState).addNode(agentNode, async (state, context) => {
    const earlier = state.conversations[agentNode] ?? [];
    answer = await agent.invoke([...earlier, { role: "user", content: question }], {
      ...options,
      signal: context.signal,
    });
    return { conversations: { [agentNode]: answer.messages } };
  });
  graph.addEdge(START, agentNode).addEdge(agentNode, END);
  await graph.compile({ checkpointer: thread.checkpointer }).invoke(
    {},
    {
      configurable: { thread_id: thread.id },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  if (!answer) throw new Error(`the conversation on thread ${thread.id} ended without an answer`);
  return answer;
}
