import { randomUUID } from "node:crypto";
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import {
  type ChatMessage,
  type ChatResponse,
  type ChatStreamPart,
  emptyUsage,
  type ModelFinishReason,
  type ModelToolCall,
  type ToolDefinition,
  type Usage,
} from "./chat-model.js";
import { readMessageContent } from "./openai-message-content.js";

function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant": {
      const toolCalls = message.toolCalls ?? [];
      if (toolCalls.length === 0) return { role: "assistant", content: message.content ?? "" };
      return {
        role: "assistant",
        content: message.content,
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

/** Our messages in the OpenAI chat-completions wire shape. */
export function toOpenAIMessages(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map(toOpenAIMessage);
}

/** Tool definitions in the OpenAI `tools` shape. */
export function toOpenAITools(tools: ToolDefinition[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** Maps an OpenAI `finish_reason`; unknown or missing values become `"other"`. */
export function toFinishReason(reason: unknown): ModelFinishReason {
  switch (reason) {
    case "stop":
    case "length":
    case "tool_calls":
    case "content_filter":
      return reason;
    case "function_call":
      return "tool_calls";
    default:
      return "other";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** Maps OpenAI `usage`; missing counts are zero, a missing total is the sum. */
export function toUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return emptyUsage();
  const inputTokens = count(usage.prompt_tokens);
  const outputTokens = count(usage.completion_tokens);
  const totalTokens =
    typeof usage.total_tokens === "number" ? count(usage.total_tokens) : inputTokens + outputTokens;
  return { inputTokens, outputTokens, totalTokens };
}

// Some compatible servers omit tool-call ids; the id only has to pair a result with its call.
function toolCallId(id: unknown): string {
  return typeof id === "string" && id !== "" ? id : `call_${randomUUID()}`;
}

/** A parsed body: the response, or why the body is not a chat completion. */
export type ParsedCompletion = { ok: true; response: ChatResponse } | { ok: false; detail: string };

/** Reads a chat-completion body, checking its shape instead of trusting the provider. */
export function parseCompletion(body: unknown): ParsedCompletion {
  if (!isRecord(body)) {
    return {
      ok: false,
      detail: `expected a chat completion JSON object, got ${typeof body === "string" ? "text" : typeof body}`,
    };
  }
  const choice: unknown = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) {
    return { ok: false, detail: "the body has no choices[0].message" };
  }
  const read = readMessageContent(choice.message);
  if (!read.ok) return { ok: false, detail: `choices[0].message: ${read.detail}` };
  const { text, reasoning } = read.content;
  const rawToolCalls = choice.message.tool_calls;
  const toolCalls: ModelToolCall[] = [];
  for (const raw of Array.isArray(rawToolCalls) ? rawToolCalls : []) {
    if (!isRecord(raw) || !isRecord(raw.function) || typeof raw.function.name !== "string") {
      return { ok: false, detail: "a tool call has no function name" };
    }
    const args = raw.function.arguments;
    toolCalls.push({
      id: toolCallId(raw.id),
      name: raw.function.name,
      arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
    });
  }
  return {
    ok: true,
    response: {
      message: {
        role: "assistant",
        content: text,
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      },
      ...(reasoning !== "" ? { reasoning } : {}),
      usage: toUsage(body.usage),
      finishReason: toFinishReason(choice.finish_reason),
    },
  };
}

interface PartialToolCall {
  id?: string;
  name: string;
  arguments: string;
}

/**
 * Turns `chat.completion.chunk`s into stream parts: reasoning and text deltas as they come,
 * each tool call once complete (its deltas are spread over many chunks), then the finish part.
 */
export class StreamAssembler {
  readonly #toolCalls = new Map<number, PartialToolCall>();
  #finishReason: unknown;
  #usage: unknown;

  /** True once a chunk carried a `finish_reason`, i.e. the model completed its answer. */
  get finished(): boolean {
    return this.#finishReason !== undefined && this.#finishReason !== null;
  }

  /** Reads one chunk; returns its deltas, or a detail string when it is malformed. */
  push(chunk: unknown): ChatStreamPart[] | string {
    if (!isRecord(chunk)) return "a stream chunk is not a JSON object";
    if (isRecord(chunk.usage)) this.#usage = chunk.usage;
    const parts: ChatStreamPart[] = [];
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      if (!isRecord(choice)) return "a stream choice is not a JSON object";
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) {
        this.#finishReason = choice.finish_reason;
      }
      const delta = isRecord(choice.delta) ? choice.delta : {};
      const read = readMessageContent(delta);
      if (!read.ok) return `a stream delta: ${read.detail}`;
      const { text, reasoning } = read.content;
      if (reasoning !== "") parts.push({ type: "reasoning-delta", text: reasoning });
      if (text) parts.push({ type: "text-delta", text });
      for (const raw of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        if (!isRecord(raw)) return "a tool-call delta is not a JSON object";
        const index = typeof raw.index === "number" ? raw.index : this.#toolCalls.size;
        const call = this.#toolCalls.get(index) ?? { name: "", arguments: "" };
        if (typeof raw.id === "string" && raw.id !== "") call.id = raw.id;
        const fn = isRecord(raw.function) ? raw.function : {};
        if (typeof fn.name === "string") call.name += fn.name;
        if (typeof fn.arguments === "string") call.arguments += fn.arguments;
        this.#toolCalls.set(index, call);
      }
    }
    return parts;
  }

  /** The parts that close the stream: every assembled tool call, then the finish part. */
  end(): ChatStreamPart[] {
    const indexes = [...this.#toolCalls.keys()].sort((a, b) => a - b);
    const parts: ChatStreamPart[] = indexes.map((index) => {
      const call = this.#toolCalls.get(index)!;
      return {
        type: "tool-call",
        toolCall: { id: toolCallId(call.id), name: call.name, arguments: call.arguments },
      };
    });
    parts.push({
      type: "finish",
      finishReason: toFinishReason(this.#finishReason),
      usage: toUsage(this.#usage),
    });
    return parts;
  }
}
