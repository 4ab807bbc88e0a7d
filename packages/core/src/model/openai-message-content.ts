/**
 * Reads the `content` of an OpenAI-compatible message or stream delta. OpenAI sends a string,
 * but several compatible providers (Mistral, Anthropic's compatibility layer, gateways in
 * front of reasoning models) send an array of typed parts, with the model's reasoning as
 * parts of its own next to the answer's text parts. Others put the reasoning in a separate
 * `reasoning_content` (DeepSeek, vLLM, Qwen) or `reasoning` (OpenRouter, Groq, Ollama) field.
 */

/** The answer text and the reasoning of one message or delta. */
export interface MessageContent {
  /** The answer's text parts joined; `null` when the content was null or absent. */
  text: string | null;
  /** The reasoning text joined; empty when the provider sent none. */
  reasoning: string;
}

/** Why a `content` value could not be read, for a `ModelResponseError`. */
export type MessageContentResult =
  | { ok: true; content: MessageContent }
  | { ok: false; detail: string };

const textPartTypes = new Set(["text", "output_text"]);
const reasoningPartTypes = new Set(["thinking", "reasoning", "reasoning_text", "summary_text"]);
const reasoningFields = ["reasoning_content", "reasoning"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The text a reasoning part holds: a string in `thinking`, `reasoning`, `text` or `content`,
 * or (Mistral) an array of text parts in `thinking`.
 */
function reasoningText(part: Record<string, unknown>): string {
  for (const key of ["thinking", "reasoning", "text", "content", "summary"]) {
    const value = part[key];
    if (typeof value === "string") return value;
    if (Array.isArray(value)) {
      return value
        .map((inner) =>
          typeof inner === "string" ? inner : isRecord(inner) ? reasoningText(inner) : "",
        )
        .join("");
    }
  }
  return "";
}

/**
 * Reads `message` (or a stream `delta`): its `content` as a string or as parts, and its
 * reasoning from reasoning parts and the `reasoning_content` / `reasoning` fields. A refusal
 * (OpenAI's `refusal` field or part) is the answer text when there is no other. Parts of
 * other types (images, audio, a redacted reasoning block) carry no answer text and are skipped.
 */
export function readMessageContent(message: Record<string, unknown>): MessageContentResult {
  const reasoning: string[] = [];
  for (const field of reasoningFields) {
    const value = message[field];
    if (typeof value === "string" && value !== "") reasoning.push(value);
  }
  const { content } = message;
  // OpenAI puts a refusal beside a null content; it is the only answer there is.
  const refusal = typeof message.refusal === "string" && message.refusal ? message.refusal : null;
  if (content === null || content === undefined || typeof content === "string") {
    const text = content || refusal || (content ?? null);
    return { ok: true, content: { text, reasoning: reasoning.join("") } };
  }
  if (!Array.isArray(content)) {
    return { ok: false, detail: "content is neither a string nor an array of parts" };
  }
  const text: string[] = [];
  for (const part of content) {
    if (typeof part === "string") {
      text.push(part);
      continue;
    }
    if (!isRecord(part) || typeof part.type !== "string") {
      return { ok: false, detail: "a content part has no type" };
    }
    if (part.type === "refusal" && typeof part.refusal === "string") {
      text.push(part.refusal);
    } else if (textPartTypes.has(part.type)) {
      if (typeof part.text !== "string") {
        return { ok: false, detail: `a "${part.type}" content part has no text` };
      }
      text.push(part.text);
    } else if (reasoningPartTypes.has(part.type)) {
      reasoning.push(reasoningText(part));
    }
  }
  return { ok: true, content: { text: text.join(""), reasoning: reasoning.join("") } };
}
