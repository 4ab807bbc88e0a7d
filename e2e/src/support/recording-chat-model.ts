import type { ChatModel, ChatRequest, ChatResponse } from "@framework/core";

/** One call a {@link RecordingChatModel} passed on, and how it ended. */
export interface RecordedModelCall {
  /** The signal the caller gave, to check afterwards whether it fired. */
  signal: AbortSignal | undefined;
  outcome: "pending" | "resolved" | "rejected";
  error?: unknown;
}

/**
 * A chat model that passes every call on to `inner` and records its signal and outcome, so a
 * test can see that a node's model call was cancelled. `before` runs ahead of each call, e.g.
 * to hold it until another node has reached a given point.
 */
export class RecordingChatModel implements ChatModel {
  readonly calls: RecordedModelCall[] = [];
  readonly #inner: ChatModel;
  readonly #before: (() => Promise<void>) | undefined;

  constructor(inner: ChatModel, before?: () => Promise<void>) {
    this.#inner = inner;
    this.#before = before;
  }

  get provider(): string {
    return this.#inner.provider;
  }

  get modelId(): string {
    return this.#inner.modelId;
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const call: RecordedModelCall = { signal: request.signal, outcome: "pending" };
    this.calls.push(call);
    try {
      await this.#before?.();
      const response = await this.#inner.generate(request);
      call.outcome = "resolved";
      return response;
    } catch (error) {
      call.outcome = "rejected";
      call.error = error;
      throw error;
    }
  }
}
