import { FrameworkError } from "@framework/core";

const name = "RunNotResumableError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** `queue.resume(runId)` of a run that is not cancelled or failed (it runs, waits, or is done). */
export class RunNotResumableError extends FrameworkError {
  private readonly [symbol] = true;

  /** The run. */
  declare readonly runId: string;
  /** Its status. */
  declare readonly status: string;

  constructor(options: { runId: string; status: string; cause?: unknown }) {
    super({
      name,
      message: `Run ${options.runId} is ${options.status}: only a cancelled or failed run can be resumed`,
      cause: options.cause,
      fields: { runId: options.runId, status: options.status },
    });
  }

  static override isInstance(error: unknown): error is RunNotResumableError {
    return FrameworkError.hasMarker(error, marker);
  }
}
