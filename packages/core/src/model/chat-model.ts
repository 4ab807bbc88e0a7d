/** A JSON Schema object, as produced by `z.toJSONSchema`. */
export type JsonSchema = Record<string, unknown>;

/** A function the model may call, described for the model. */
export interface ToolDefinition {
  /** The tool's name as the model must write it. */
  name: string;
  /** What the tool does and when to use it. */
  description: string;
  /** JSON Schema of the tool's single object argument. */
  parameters: JsonSchema;
}

/** A tool call as the model wrote it: arguments are the raw JSON text it produced. */
export interface ModelToolCall {
  /** The provider's id for this call, echoed back with the result. */
  id: string;
  /** The tool name the model asked for (not yet checked against any registry). */
  name: string;
  /** The arguments exactly as the model sent them; may be invalid JSON. */
  arguments: string;
}

/** A system instruction. */
export interface SystemMessage {
  role: "system";
  content: string;
}

/** A message from the user. */
export interface UserMessage {
  role: "user";
  content: string;
}

/** A reply from the model, possibly asking for tool calls. */
export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  toolCalls?: ModelToolCall[];
}

/** The result of one tool call, sent back to the model as text. */
export interface ToolMessage {
  role: "tool";
  /** The `ModelToolCall.id` this answers. */
  toolCallId: string;
  /** The tool's name. */
  name: string;
  content: string;
}

/** Any message of a conversation with a chat model. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Token counts of one or more model calls. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** Why the model stopped generating. */
export type ModelFinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "other";

/** A JSON answer format: OpenAI's `response_format: { type: "json_schema" }`. */
export interface ResponseFormat {
  type: "json";
  /** Name of the format, letters, digits, `_` and `-` only. */
  name: string;
  /** JSON Schema of the answer. */
  schema: JsonSchema;
  /** Whether the provider must follow the schema exactly (OpenAI's strict mode). */
  strict: boolean;
}

/** One request to a chat model. */
export interface ChatRequest {
  messages: ChatMessage[];
  /** Tools the model may call. Omitted or empty: the model answers in text only. */
  tools?: ToolDefinition[];
  /** Whether the model may (`auto`) or must not (`none`) call tools. Defaults to `auto`. */
  toolChoice?: "auto" | "none" | "required";
  temperature?: number;
  maxOutputTokens?: number;
  /**
   * Asks for an answer that is one JSON value matching `schema`. A model whose
   * `supportsStructuredOutputs` is true conveys it to its provider (as the provider's
   * structured outputs, or in the prompt); others ignore it, and agents state the schema in
   * their prompt for them.
   */
  responseFormat?: ResponseFormat;
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Told before each retry of a failed request, for progress displays. */
  onRetry?: (retry: ModelRetry) => void;
}

/** A retry a model is about to make. */
export interface ModelRetry {
  /** The retry's number, from 1. */
  attempt: number;
  /** The wait before it, in milliseconds. */
  delayMs: number;
  /** HTTP status of the failed attempt; absent for a connection error. */
  status?: number;
}

/** A chat model's complete answer to one request. */
export interface ChatResponse {
  message: AssistantMessage;
  /**
   * The model's reasoning ("thinking"), when the provider sent it apart from the answer:
   * as reasoning content parts or a `reasoning_content` / `reasoning` field. Never part of
   * `message.content`, and never sent back to the model.
   */
  reasoning?: string;
  usage: Usage;
  finishReason: ModelFinishReason;
}

/** One part of a streamed answer. */
export type ChatStreamPart =
  | { type: "text-delta"; text: string }
  /** A piece of the model's reasoning, kept apart from the answer text. */
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-call"; toolCall: ModelToolCall }
  | { type: "finish"; finishReason: ModelFinishReason; usage: Usage };

/**
 * The small interface every model implements: messages and tool definitions in, an
 * assistant message with tool calls and token usage out. `OpenAIChatModel` is the
 * production implementation; `MockChatModel` from `@framework/testing` the scripted one.
 */
export interface ChatModel {
  /** Provider name for logs and errors, e.g. `"openai-compatible"`. */
  readonly provider: string;
  /** Model name sent to the provider. */
  readonly modelId: string;
  /**
   * Whether the model conveys `ChatRequest.responseFormat` to its provider itself: as the
   * provider's structured outputs, or (for a provider that refuses them) in the prompt. When
   * not, an agent asking for structured output describes the schema in its prompt.
   */
  readonly supportsStructuredOutputs?: boolean;
  /** Answers one request. Rejects with a `ModelCallError` subclass on failure. */
  generate(request: ChatRequest): Promise<ChatResponse>;
  /** Streams one answer, when the model supports it. */
  stream?(request: ChatRequest): AsyncIterable<ChatStreamPart>;
}

/** Usage with every count at zero. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** Adds two usages. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
