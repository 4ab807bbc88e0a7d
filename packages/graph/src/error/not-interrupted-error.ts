import { FrameworkError } from "@framework/core";

const name = "NotInterruptedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** `resume(answer)` was passed for a thread whose run is not waiting on an interrupt. */
export class NotInterruptedError extends FrameworkError {
  private readonly [symbol] = true;

  declare readonly threadId: string;
  /** The thread's run status, `"new"` when it never ran. */
  declare readonly status: string;

  constructor({ threadId, status }: { threadId: string; status: string }) {
    super({
      name,
      message: `Thread "${threadId}" has no interrupted run to resume (its status is "${status}"); pass new input, or null to continue a failed run`,
      fields: { threadId, status },
    });
  }

  static override isInstance(error: unknown): error is NotInterruptedError {
    return FrameworkError.hasMarker(error, marker);
  }
}
