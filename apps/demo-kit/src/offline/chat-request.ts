import type {
  OpenAIChatRequestBody,
  OpenAIWireMessage,
  ScriptedAnswer,
  ScriptedToolCall,
} from "@framework/testing";

/** A tool call the model made earlier in the conversation, with what the tool returned. */
export interface ToolResult {
  name: string;
  arguments: Record<string, unknown>;
  /** The text the tool's result was rendered to. */
  content: string;
}

function text(message: OpenAIWireMessage | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  return content ? JSON.stringify(content) : "";
}

function parseArguments(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * What a scripted model reads from a chat request: the system prompt, the user text being
 * answered, the tools offered, and the tool results of the current turn with the calls that
 * produced them. Asked to correct its answer (a structured-output retry), it reads the turn
 * that answer was to, so a script answers the retry as it answered the turn.
 */
export class ChatRequest {
  readonly body: OpenAIChatRequestBody;

  constructor(body: OpenAIChatRequestBody) {
    this.body = body;
  }

  /** The system prompt (the agent's description, skills and instruction). */
  get system(): string {
    return text(this.body.messages.find((message) => message.role === "system"));
  }

  /**
   * Whether the model is asked to correct its last answer rather than to answer a new
   * message: the request offers no tools and its latest user message follows the model's own
   * final answer, as an agent's structured-output retry does. A continued conversation offers
   * the agent's tools again, so it is no correction.
   */
  get correcting(): boolean {
    const messages = this.body.messages;
    const previous = messages.at(-2);
    return (
      (this.body.tools ?? []).length === 0 &&
      messages.at(-1)?.role === "user" &&
      previous?.role === "assistant" &&
      (previous.tool_calls ?? []).length === 0
    );
  }

  /**
   * Where the turn being answered starts: the latest user message, or, when the model is
   * asked to correct its answer, the user message that answer was to.
   */
  get #turnStart(): number {
    const messages = this.body.messages;
    const latest = messages.findLastIndex((message) => message.role === "user");
    if (!this.correcting) return latest;
    return messages.slice(0, latest).findLastIndex((message) => message.role === "user");
  }

  /**
   * The user message being answered: the query or a node's prompt (the one the model's
   * answer was to, when it is asked to correct that answer).
   */
  get user(): string {
    return text(this.body.messages[this.#turnStart]);
  }

  /** Whether the request offers a tool of that name. */
  offers(tool: string): boolean {
    return (this.body.tools ?? []).some((offered) => offered.function.name === tool);
  }

  /**
   * The tool results of the turn being answered (since {@link user}), paired with their
   * calls, oldest first: in a continued conversation, the earlier questions' tool work is not
   * this answer's.
   */
  get toolResults(): ToolResult[] {
    const calls = new Map<string, { name: string; arguments: Record<string, unknown> }>();
    const results: ToolResult[] = [];
    for (const message of this.body.messages.slice(Math.max(0, this.#turnStart))) {
      for (const call of message.tool_calls ?? []) {
        calls.set(call.id, {
          name: call.function.name,
          arguments: parseArguments(call.function.arguments),
        });
      }
      if (message.role === "tool" && message.tool_call_id) {
        const call = calls.get(message.tool_call_id);
        if (call) results.push({ ...call, content: text(message) });
      }
    }
    return results;
  }

  /** The results of one tool, oldest first. */
  resultsOf(tool: string): ToolResult[] {
    return this.toolResults.filter((result) => result.name === tool);
  }

  /** Whether the tool was called already. */
  called(tool: string): boolean {
    return this.resultsOf(tool).length > 0;
  }
}

/** A scripted answer asking for these tool calls, in order (they run concurrently). */
export function callTools(...calls: ScriptedToolCall[]): ScriptedAnswer {
  return { toolCalls: calls };
}
