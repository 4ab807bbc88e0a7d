import type { ChatMessage, Usage } from "../model/chat-model.js";

/** Why an agent run ended. */
export type AgentFinishReason =
  /** The model answered without asking for a tool. */
  | "stop"
  /** The iteration limit was reached; the answer came from one last call without tools. */
  | "max_iterations"
  /** The model hit its output token limit. */
  | "length"
  /** The provider filtered the answer. */
  | "content_filter"
  | "other";

/** One tool call made during a run, with its outcome. */
export interface AgentToolCall {
  /** The call's id (the provider's, or generated in JSON mode). */
  id: string;
  /** 1-based iteration in which the model asked for it. */
  iteration: number;
  toolName: string;
  /** Arguments after validation and defaults when the call ran; as sent otherwise. */
  arguments: unknown;
  ok: boolean;
  /** The tool's return value, when it ran. */
  result?: unknown;
  /** Why the call failed, when it did. The model saw this error's message. */
  error?: Error;
  /** The text the model received. */
  output: string;
}

/** What `Agent.invoke` returns. */
export interface AgentResult {
  /** The final answer text. */
  content: string;
  /**
   * The reasoning the model sent with its final answer, apart from it (see
   * `ChatResponse.reasoning`); absent when the provider sent none.
   */
  reasoning?: string;
  /** Model calls made that could request tools (the final no-tool call is not counted). */
  iterations: number;
  /** Every tool call, in the order the model asked for them. */
  toolCalls: AgentToolCall[];
  /** Tokens used by every model call of this run. */
  usage: Usage;
  finishReason: AgentFinishReason;
  /**
   * The whole conversation after the run, without the system prompt: the input's messages,
   * then every reply, tool call and tool result of this run. Append the next user message
   * and pass it to `invoke` to continue.
   */
  messages: ChatMessage[];
}

/** What `Agent.invoke` returns when asked for structured output: the answer, validated. */
export interface StructuredAgentResult<OUTPUT> extends AgentResult {
  /** The final answer parsed as JSON and validated against the `output` schema. */
  output: OUTPUT;
}
