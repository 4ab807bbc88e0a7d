import { FrameworkError } from "@framework/core";

const name = "ThreadBusyError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A run was submitted to a thread that already has an active run (or runs queued behind one):
 * two runs never interleave on one thread. Submit with `{ ifBusy: "queue" }` to wait instead.
 */
export class ThreadBusyError extends FrameworkError {
  private readonly [symbol] = true;

  /** The busy thread. */
  declare readonly threadId: string;
  /** The run holding it, when one is active. */
  declare readonly activeRunId: string | undefined;

  constructor(options: { threadId: string; activeRunId?: string; cause?: unknown }) {
    super({
      name,
      message: options.activeRunId
        ? `Thread "${options.threadId}" is busy with run ${options.activeRunId}; submit with { ifBusy: "queue" } to run after it`
        : `Thread "${options.threadId}" has runs queued; submit with { ifBusy: "queue" } to run after them`,
      cause: options.cause,
      fields: { threadId: options.threadId, activeRunId: options.activeRunId },
    });
  }

  static override isInstance(error: unknown): error is ThreadBusyError {
    return FrameworkError.hasMarker(error, marker);
  }
}
