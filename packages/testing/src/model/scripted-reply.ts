import type { ModelFinishReason, ModelToolCall, Usage } from "@framework/core";

/** A tool call a scripted reply asks for. Object arguments are sent as JSON text. */
export interface ScriptedToolCall {
  name: string;
  /** An object, or raw text (which may be invalid JSON, to test bad tool calls). */
  arguments: Record<string, unknown> | string;
  /** Defaults to `call_<callIndex>_<position>`. */
  id?: string;
}

/** A scripted assistant answer: text, tool calls, or both. */
export interface ScriptedAnswer {
  content?: string | null;
  /**
   * The model's reasoning, sent apart from the answer: the fake LLM server sends it in the
   * shape its `contentFormat` says; `MockChatModel` returns it as `ChatResponse.reasoning`.
   */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Token counts reported for this answer; estimated from the text when absent. */
  usage?: Usage;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: ModelFinishReason;
}

/** A reply as data: a text answer, a structured answer, or an error to fail the call with. */
export type ScriptedReplyValue = string | ScriptedAnswer | Error;

/**
 * One entry of a script: a reply, or a function computing it from the request (`TRequest`)
 * and the 0-based index of the call.
 */
export type ScriptedReply<TRequest> =
  | ScriptedReplyValue
  | ((request: TRequest, callIndex: number) => ScriptedReplyValue | Promise<ScriptedReplyValue>);

/** A scripted answer with every default applied. */
export interface ResolvedAnswer {
  content: string | null;
  reasoning: string | undefined;
  toolCalls: ModelToolCall[];
  /** As scripted; `undefined` lets the caller estimate it. */
  usage: Usage | undefined;
  finishReason: ModelFinishReason;
}

/** A tool call for a script: `{ toolCalls: [mockToolCall("get_current_time", {})] }`. */
export function mockToolCall(
  name: string,
  args: Record<string, unknown> | string = {},
  id?: string,
): ScriptedToolCall {
  return id === undefined ? { name, arguments: args } : { name, arguments: args, id };
}

/** Applies the defaults to a reply that is not an error. */
export function resolveAnswer(value: string | ScriptedAnswer, callIndex: number): ResolvedAnswer {
  const answer: ScriptedAnswer = typeof value === "string" ? { content: value } : value;
  const toolCalls = (answer.toolCalls ?? []).map(
    (call, position): ModelToolCall => ({
      id: call.id ?? `call_${callIndex}_${position}`,
      name: call.name,
      arguments:
        typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    }),
  );
  return {
    content: answer.content ?? (toolCalls.length > 0 ? null : ""),
    reasoning: answer.reasoning,
    toolCalls,
    usage: answer.usage,
    finishReason: answer.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
  };
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
 * Deterministic token counts (about four characters a token) for an answer whose script
 * gives none, so usage sums in tests are non-zero and stable.
 */
export function estimateUsage(promptTexts: string[], answer: ResolvedAnswer): Usage {
  const inputTokens = tokensOf(promptTexts.join(""));
  const outputTokens = tokensOf(
    (answer.content ?? "") + answer.toolCalls.map((call) => call.name + call.arguments).join(""),
  );
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

/** Splits text into word-sized stream deltas that join back to the text. */
export function splitIntoDeltas(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

/** Hands out a script's replies in order, then the default reply, then a clear error. */
export class ReplyScript<TRequest> {
  readonly #replies: ScriptedReply<TRequest>[];
  readonly #defaultReply: ScriptedReply<TRequest> | undefined;
  readonly #owner: string;
  #next = 0;

  /** @param owner - names the double in the exhausted-script error, e.g. `"MockChatModel"`. */
  constructor(
    replies: ScriptedReply<TRequest>[],
    defaultReply: ScriptedReply<TRequest> | undefined,
    owner: string,
  ) {
    this.#replies = [...replies];
    this.#defaultReply = defaultReply;
    this.#owner = owner;
  }

  /** Appends replies to the script. */
  add(...replies: ScriptedReply<TRequest>[]): void {
    this.#replies.push(...replies);
  }

  /** The reply for call `callIndex`; an `Error` value is returned, not thrown. */
  async next(request: TRequest, callIndex: number): Promise<ScriptedReplyValue> {
    const reply =
      this.#next < this.#replies.length ? this.#replies[this.#next++] : this.#defaultReply;
    if (reply === undefined) {
      throw new Error(
        `${this.#owner}: no scripted reply for call #${callIndex} (the script has ${this.#replies.length} replies and no defaultReply)`,
      );
    }
    return typeof reply === "function" ? reply(request, callIndex) : reply;
  }
}
