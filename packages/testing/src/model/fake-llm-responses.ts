import type { Usage } from "@framework/core";
import type { OpenAIWireToolCall, OpenAIWireUsage } from "./openai-wire.js";
import { type ResolvedAnswer, splitIntoDeltas } from "./scripted-reply.js";

/** An OpenAI error body: `{ error: { message, type, param, code } }`. */
export function openAIErrorBody(
  message: string,
  type: string,
  code: string | null = null,
): { error: { message: string; type: string; param: null; code: string | null } } {
  return { error: { message, type, param: null, code } };
}

function toWireUsage(usage: Usage): OpenAIWireUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
  };
}

function toWireToolCalls(answer: ResolvedAnswer): OpenAIWireToolCall[] {
  return answer.toolCalls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
}

const created = () => Math.floor(Date.now() / 1000);

/**
 * How the fake LLM server writes `message.content` (and streamed `delta.content`):
 * - `string`: OpenAI's shape, a plain string; reasoning, when scripted, goes in a
 *   `reasoning_content` field as DeepSeek, vLLM and Qwen send it;
 * - `parts`: an array of typed parts as Mistral sends it: a `thinking` part holding the
 *   reasoning as text chunks, then a `text` part;
 * - `reasoning-field`: a plain string, with reasoning in a `reasoning` field as OpenRouter,
 *   Groq and Ollama send it.
 */
export type FakeLLMContentFormat = "string" | "parts" | "reasoning-field";

/** The `content` and reasoning fields of a message or delta holding `text` and `reasoning`. */
function contentFields(
  text: string | null,
  reasoning: string | undefined,
  format: FakeLLMContentFormat,
): Record<string, unknown> {
  if (format === "parts") {
    const parts: unknown[] = [];
    if (reasoning) parts.push({ type: "thinking", thinking: [{ type: "text", text: reasoning }] });
    if (text !== null) parts.push({ type: "text", text });
    return { content: parts.length > 0 ? parts : text };
  }
  const field = format === "string" ? "reasoning_content" : "reasoning";
  return { content: text, ...(reasoning ? { [field]: reasoning } : {}) };
}

/** A `chat.completion` body, as the OpenAI API returns it. */
export function chatCompletionBody(
  answer: ResolvedAnswer,
  usage: Usage,
  model: string,
  id: string,
  format: FakeLLMContentFormat = "string",
): Record<string, unknown> {
  const toolCalls = toWireToolCalls(answer);
  return {
    id,
    object: "chat.completion",
    created: created(),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          ...contentFields(answer.content, answer.reasoning, format),
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: answer.finishReason,
      },
    ],
    usage: toWireUsage(usage),
  };
}

// Arguments arrive in pieces in real streams; two pieces exercise the client's reassembly.
function halves(text: string): string[] {
  const middle = Math.ceil(text.length / 2);
  return text.length < 2 ? [text] : [text.slice(0, middle), text.slice(middle)];
}

/**
 * The server-sent events of a streamed answer: a role chunk, reasoning deltas, text deltas
 * (both written as `format` says), tool-call deltas
 * (name first, arguments split over chunks), the finish chunk, the usage chunk when
 * `includeUsage`, then `data: [DONE]`.
 */
export function chatCompletionEvents(
  answer: ResolvedAnswer,
  usage: Usage,
  model: string,
  id: string,
  includeUsage: boolean,
  format: FakeLLMContentFormat = "string",
): string {
  const base = { id, object: "chat.completion.chunk", created: created(), model };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: unknown[] = [chunk({ role: "assistant", content: "" })];
  for (const reasoning of splitIntoDeltas(answer.reasoning ?? "")) {
    chunks.push(chunk(contentFields(format === "parts" ? null : "", reasoning, format)));
  }
  for (const text of splitIntoDeltas(answer.content ?? "")) {
    chunks.push(chunk(contentFields(text, undefined, format)));
  }
  toWireToolCalls(answer).forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: "function",
            function: { name: call.function.name, arguments: "" },
          },
        ],
      }),
    );
    for (const piece of halves(call.function.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, answer.finishReason));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: toWireUsage(usage) });
  return `${chunks.map((data) => `data: ${JSON.stringify(data)}\n\n`).join("")}data: [DONE]\n\n`;
}
