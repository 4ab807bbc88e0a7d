/**
 * The parts of the OpenAI chat-completions wire format the fake LLM server reads and writes.
 * Declared here so that this package does not need the `openai` package at run time.
 */

/** A tool call as sent in `message.tool_calls`. */
export interface OpenAIWireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A message of a request body. */
export interface OpenAIWireMessage {
  role: string;
  /** Text, or content parts, or null for an assistant message with tool calls. */
  content?: string | null | unknown[];
  tool_calls?: OpenAIWireToolCall[];
  tool_call_id?: string;
  name?: string;
}

/** A tool definition of a request body. */
export interface OpenAIWireTool {
  type: string;
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** A `POST /chat/completions` request body. */
export interface OpenAIChatRequestBody {
  model: string;
  messages: OpenAIWireMessage[];
  tools?: OpenAIWireTool[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  max_tokens?: number;
  /** The answer format asked for: `json_schema` for structured outputs. */
  response_format?: {
    type: string;
    json_schema?: { name: string; schema?: Record<string, unknown>; strict?: boolean | null };
  };
  [field: string]: unknown;
}

/** Token counts in the wire format. */
export interface OpenAIWireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}
