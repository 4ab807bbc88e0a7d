import { FrameworkError } from "@framework/core";

const name = "ThreadLeaseLostError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A checkpoint of a thread this process no longer holds was refused before reaching Postgres:
 * the process lost the thread's lease (its connection broke, or it was paused past
 * `leaseTimeoutMs` and another process took the thread over), which now executes its runs.
 */
export class ThreadLeaseLostError extends FrameworkError {
  private readonly [symbol] = true;

  /** The thread. */
  declare readonly threadId: string;

  constructor(options: { threadId: string }) {
    super({
      name,
      message: `Lost the lease of thread ${options.threadId}: this process may no longer write it`,
      fields: { threadId: options.threadId },
    });
  }

  static override isInstance(error: unknown): error is ThreadLeaseLostError {
    return FrameworkError.hasMarker(error, marker);
  }
}
