import type { ChatMessage, ResponseFormat } from "./chat-model.js";

/**
 * The system prompt section asking for the answer as JSON, for a model that is not asked
 * through the provider's structured outputs.
 */
export function responseFormatInstruction(format: ResponseFormat): string {
  return [
    "Once you need no more tools, give your final answer as one JSON value matching this JSON Schema, with no other text:",
    JSON.stringify(format.schema),
  ].join("\n");
}

/**
 * `messages` with {@link responseFormatInstruction} appended to the system prompt (or as one,
 * when there is none). Unchanged when the system prompt already holds it, as an agent's does
 * when it wrote the schema there itself.
 */
export function withResponseFormatInstruction(
  messages: readonly ChatMessage[],
  format: ResponseFormat,
): ChatMessage[] {
  const instruction = responseFormatInstruction(format);
  const index = messages.findIndex((message) => message.role === "system");
  if (index < 0) return [{ role: "system", content: instruction }, ...messages];
  const system = messages[index]!;
  if (typeof system.content === "string" && system.content.includes(instruction)) {
    return [...messages];
  }
  const content = system.content ? `${system.content}\n\n${instruction}` : instruction;
  return messages.map((message, i) => (i === index ? { role: "system", content } : message));
}
