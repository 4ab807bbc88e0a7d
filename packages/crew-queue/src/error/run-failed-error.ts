import { FrameworkError } from "@framework/core";

const name = "RunFailedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The run stopped on an error (a node threw, the step limit, attempts exhausted). Its thread
 * keeps the failed checkpoint: `queue.resume(runId)` continues it without re-running finished
 * nodes.
 */
export class RunFailedError extends FrameworkError {
  private readonly [symbol] = true;

  /** The failed run. */
  declare readonly runId: string;
  /** Its thread. */
  declare readonly threadId: string;
  /** What stopped it, as recorded in Postgres. */
  declare readonly error: string;

  constructor(options: { runId: string; threadId: string; error: string; cause?: unknown }) {
    super({
      name,
      message: `Run ${options.runId} on thread "${options.threadId}" failed: ${options.error}`,
      cause: options.cause,
      fields: { runId: options.runId, threadId: options.threadId, error: options.error },
    });
  }

  static override isInstance(error: unknown): error is RunFailedError {
    return FrameworkError.hasMarker(error, marker);
  }
}
