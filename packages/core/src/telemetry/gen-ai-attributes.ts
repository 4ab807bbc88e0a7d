import type { ChatMessage } from "../model/chat-model.js";

/** GenAI semantic-convention attribute names (OpenTelemetry semconv, `gen_ai.*`). */
export const GenAiAttribute = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  /** The older name of `gen_ai.provider.name`, still read by many back ends. */
  system: "gen_ai.system",
  requestModel: "gen_ai.request.model",
  requestTemperature: "gen_ai.request.temperature",
  requestMaxTokens: "gen_ai.request.max_tokens",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  agentName: "gen_ai.agent.name",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolArguments: "gen_ai.tool.call.arguments",
  toolResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
} as const;

/** One message as the GenAI conventions describe it: a role and typed parts. */
export interface GenAiMessage {
  role: string;
  parts: Record<string, unknown>[];
  finish_reason?: string;
}

/** A conversation in the GenAI conventions' message shape. */
export function toGenAiMessages(messages: readonly ChatMessage[]): GenAiMessage[] {
  return messages.map((message) => {
    switch (message.role) {
      case "tool":
        return {
          role: "tool",
          parts: [
            { type: "tool_call_response", id: message.toolCallId, response: message.content },
          ],
        };
      case "assistant":
        return {
          role: "assistant",
          parts: [
            ...(message.content ? [{ type: "text", content: message.content }] : []),
            ...(message.toolCalls ?? []).map((call) => ({
              type: "tool_call",
              id: call.id,
              name: call.name,
              arguments: call.arguments,
            })),
          ],
        };
      default:
        return { role: message.role, parts: [{ type: "text", content: message.content }] };
    }
  });
}
