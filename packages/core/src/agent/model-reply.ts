import { AbortedError } from "../error/aborted-error.js";
import {
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  emptyUsage,
  type ModelFinishReason,
  type ModelToolCall,
} from "../model/chat-model.js";
import { parseJsonToolCalls } from "../tool/json-tool-call-parser.js";
import type { AgentEventHandler } from "./agent-event.js";
import type { ToolCallingMode } from "./prompt.js";

/**
 * Asks the model for one reply. A model that streams is streamed, and its answer text and
 * reasoning go to `onEvent` as `text-delta` and `reasoning-delta` events while they arrive;
 * retries are reported as `retry` events.
 * In JSON tool-calling mode a tool call is written as text, so the deltas are held until the
 * reply is complete and emitted only when it holds no tool call.
 */
export async function modelReply(
  model: ChatModel,
  request: ChatRequest,
  toolCalling: ToolCallingMode,
  onEvent: AgentEventHandler | undefined,
): Promise<ChatResponse> {
  const withRetries: ChatRequest = onEvent
    ? { ...request, onRetry: (retry) => onEvent({ type: "retry", ...retry }) }
    : request;
  if (!model.stream || !onEvent) return model.generate(withRetries);

  let text = "";
  let reasoning: string | undefined;
  const toolCalls: ModelToolCall[] = [];
  let finishReason: ModelFinishReason = "other";
  let usage = emptyUsage();
  const held: string[] = [];
  for await (const part of model.stream(withRetries)) {
    switch (part.type) {
      case "text-delta":
        text += part.text;
        if (toolCalling === "json") held.push(part.text);
        else onEvent({ type: "text-delta", text: part.text });
        break;
      case "reasoning-delta":
        reasoning = (reasoning ?? "") + part.text;
        // Reasoning is never read as a tool call, so even JSON mode need not hold it back.
        onEvent({ type: "reasoning-delta", text: part.text });
        break;
      case "tool-call":
        toolCalls.push(part.toolCall);
        break;
      case "finish":
        finishReason = part.finishReason;
        usage = part.usage;
        break;
    }
  }
  // A model that ends its stream quietly on abort must not pass for a finished answer.
  AbortedError.throwIfAborted(request.signal, "chat completion");
  if (held.length > 0 && parseJsonToolCalls(text).length === 0) {
    for (const delta of held) onEvent({ type: "text-delta", text: delta });
  }
  return {
    message: {
      role: "assistant",
      content: text === "" && toolCalls.length > 0 ? null : text,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
    },
    ...(reasoning !== undefined ? { reasoning } : {}),
    usage,
    finishReason,
  };
}
