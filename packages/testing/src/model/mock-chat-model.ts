import {
  AbortedError,
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamPart,
  type Usage,
} from "@framework/core";
import { abortableDelay } from "@framework/core/internal";
import {
  estimateUsage,
  ReplyScript,
  resolveAnswer,
  type ScriptedReply,
  splitIntoDeltas,
} from "./scripted-reply.js";

/** One entry of a {@link MockChatModel} script. */
export type MockReply = ScriptedReply<ChatRequest>;

/** Options of {@link MockChatModel}. */
export interface MockChatModelOptions {
  /** Answers every call after the script runs out; without it such a call fails. */
  defaultReply?: MockReply;
  /** Each call waits this long before answering (abortable by the request's signal). */
  latencyMs?: number;
  /** Usage of replies that set none; estimated from the text when absent. */
  usage?: Usage;
  /** Defaults to `"mock-model"`. */
  modelId?: string;
  /**
   * Claim to enforce `responseFormat` like a model with structured outputs, so agents send it
   * instead of describing the schema in the prompt. The replies stay as scripted. Default `false`.
   */
  structuredOutputs?: boolean;
}

/** A call {@link MockChatModel} received. */
export interface MockCallRecord {
  /** 0-based call index. */
  index: number;
  /** A deep copy of the request, without its signal and retry callback. */
  request: ChatRequest;
  /** `performance.now()` when the call started. */
  startedAt: number;
  /** `performance.now()` when it settled; absent while running. */
  endedAt?: number;
  response?: ChatResponse;
  error?: unknown;
}

const operation = "chat completion";

function copyRequest(request: ChatRequest): ChatRequest {
  const { signal: _signal, onRetry: _onRetry, ...data } = request;
  return structuredClone(data);
}

/** Settles like `promise`, or rejects with an {@link AbortedError} once `signal` fires. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError({ operation, cause: signal.reason }));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * A scripted {@link ChatModel} for unit tests. Each call takes the next reply of the script:
 * a string (text answer), `{ content?, toolCalls?, usage? }`, an `Error` to reject with, or a
 * function of `(request, callIndex)` returning one of those. Every call is recorded.
 *
 * @example
 * const llm = new MockChatModel([{ toolCalls: [mockToolCall("get_current_time", {})] }, "It is noon."]);
 */
export class MockChatModel implements ChatModel {
  readonly provider = "mock";
  readonly modelId: string;
  /** Whether agents are told this model enforces `responseFormat` (see the option). */
  readonly supportsStructuredOutputs: boolean;
  /** Every request received (deep copies), in call order. */
  readonly calls: ChatRequest[] = [];
  /** Every call with its timestamps and outcome, in call order. */
  readonly records: MockCallRecord[] = [];
  readonly #script: ReplyScript<ChatRequest>;
  readonly #latencyMs: number;
  readonly #usage: Usage | undefined;

  constructor(script: MockReply[] = [], options: MockChatModelOptions = {}) {
    this.#script = new ReplyScript(script, options.defaultReply, "MockChatModel");
    this.#latencyMs = options.latencyMs ?? 0;
    this.#usage = options.usage;
    this.modelId = options.modelId ?? "mock-model";
    this.supportsStructuredOutputs = options.structuredOutputs ?? false;
  }

  /** Appends replies to the script. */
  addReplies(...replies: MockReply[]): void {
    this.#script.add(...replies);
  }

  /** Answers with the next scripted reply, after `latencyMs`; records the call either way. */
  async generate(request: ChatRequest): Promise<ChatResponse> {
    AbortedError.throwIfAborted(request.signal, operation);
    const copy = copyRequest(request);
    const record: MockCallRecord = {
      index: this.records.length,
      request: copy,
      startedAt: performance.now(),
    };
    this.calls.push(copy);
    this.records.push(record);
    try {
      if (this.#latencyMs > 0) await abortableDelay(this.#latencyMs, request.signal, operation);
      const value = await unlessAborted(
        this.#script.next(structuredClone(copy), record.index),
        request.signal,
      );
      if (value instanceof Error) throw value;
      const answer = resolveAnswer(value, record.index);
      const response: ChatResponse = {
        message: {
          role: "assistant",
          content: answer.content,
          ...(answer.toolCalls.length > 0 ? { toolCalls: answer.toolCalls } : {}),
        },
        ...(answer.reasoning !== undefined ? { reasoning: answer.reasoning } : {}),
        usage:
          answer.usage ??
          this.#usage ??
          estimateUsage(
            copy.messages.map((message) => message.content ?? ""),
            answer,
          ),
        finishReason: answer.finishReason,
      };
      record.response = response;
      return response;
    } catch (error) {
      record.error = error;
      throw error;
    } finally {
      record.endedAt = performance.now();
    }
  }

  /**
   * Streams the scripted answer: its reasoning and then its text in word-sized deltas, then
   * tool calls, then finish.
   */
  async *stream(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const { message, reasoning, usage, finishReason } = await this.generate(request);
    for (const text of splitIntoDeltas(reasoning ?? "")) {
      AbortedError.throwIfAborted(request.signal, operation);
      yield { type: "reasoning-delta", text };
    }
    for (const text of splitIntoDeltas(message.content ?? "")) {
      AbortedError.throwIfAborted(request.signal, operation);
      yield { type: "text-delta", text };
    }
    for (const toolCall of message.toolCalls ?? []) yield { type: "tool-call", toolCall };
    yield { type: "finish", finishReason, usage };
  }
}
