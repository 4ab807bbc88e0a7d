import { FrameworkError } from "@framework/core";

const name = "RunCancelledError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** The run was cancelled; `queue.resume(runId)` continues it from its last checkpoint. */
export class RunCancelledError extends FrameworkError {
  private readonly [symbol] = true;

  /** The cancelled run. */
  declare readonly runId: string;
  /** Its thread. */
  declare readonly threadId: string;

  constructor(options: { runId: string; threadId: string; cause?: unknown }) {
    super({
      name,
      message: `Run ${options.runId} on thread "${options.threadId}" was cancelled; queue.resume() continues it`,
      cause: options.cause,
      fields: { runId: options.runId, threadId: options.threadId },
    });
  }

  static override isInstance(error: unknown): error is RunCancelledError {
    return FrameworkError.hasMarker(error, marker);
  }
}
