import {
  type Agent,
  type AgentResult,
  type InvokeOptions,
  type OutputIssue,
  type OutputSchema,
  OutputValidationError,
  type StructuredAgentResult,
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
 * The answer to a turn asked for as structured output: the typed `output`, or, when the
 * model's answer still did not match the schema after the retry (a model that writes prose
 * whatever it is asked), `output: null` with the `issues`, and its text as `content`.
 */
export type ThreadAnswer<T> =
  | (StructuredAgentResult<T> & { issues?: undefined })
  | (AgentResult & { output: null; issues: OutputIssue[] });

/**
 * Asks `agent` the `question` as the next turn of the conversation saved on `thread`, and
 * saves the conversation with the answer there: a later run (another process) on the same
 * thread continues it. The conversation is graph state of a one-node graph on the thread's
 * checkpointer, so it is saved exactly when the turn finishes, and a failed turn leaves the
 * saved conversation as it was. With an `output` schema, an answer that does not match it is
 * no failure: the turn is saved and its text comes back, without `output` (see
 * {@link ThreadAnswer}).
 */
export function invokeOnThread<S extends OutputSchema>(
  agent: Agent,
  question: string,
  options: ThreadInvokeOptions & { output: S },
): Promise<ThreadAnswer<z.output<S>>>;
export function invokeOnThread(
  agent: Agent,
  question: string,
  options: ThreadInvokeOptions,
): Promise<AgentResult>;
export async function invokeOnThread(
  agent: Agent,
  question: string,
  { thread, ...options }: ThreadInvokeOptions,
): Promise<AgentResult | ThreadAnswer<unknown>> {
  let answer: AgentResult | ThreadAnswer<unknown> | undefined;
  const graph = new FlowStateGraph(ConversationState).addNode(agentNode, async (state, context) => {
    const earlier = state.conversations[agentNode] ?? [];
    answer = await agent
      .invoke([...earlier, { role: "user", content: question }], {
        ...options,
        signal: context.signal,
      })
      .catch((error: unknown) => unstructured(error));
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

/** The run of an answer that did not match its schema, as an answer; any other error again. */
function unstructured(error: unknown): ThreadAnswer<never> {
  if (!OutputValidationError.isInstance(error) || error.result === undefined) throw error;
  return { ...error.result, output: null, issues: error.issues };
}
