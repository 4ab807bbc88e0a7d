import { FrameworkError } from "@framework/core";

const name = "ThreadWithoutAssistantError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A thread's state was updated before any assistant ran on it and without naming one, so the
 * server cannot tell whose state it is to hold. Create the thread with `metadata.graph_id`
 * (LangGraph's client: `threads.create({ graphId })`), or run an assistant on it first.
 */
export class ThreadWithoutAssistantError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 409;
  /** The thread. */
  declare readonly threadId: string;

  constructor(options: { threadId: string }) {
    super({
      name,
      message: `Thread ${options.threadId} has no assistant yet, so its state cannot be updated: create it with metadata.graph_id naming one (LangGraph's client: threads.create({ graphId })), or run an assistant on it first`,
      fields: { status: 409, threadId: options.threadId },
    });
  }

  static override isInstance(error: unknown): error is ThreadWithoutAssistantError {
    return FrameworkError.hasMarker(error, marker);
  }
}
