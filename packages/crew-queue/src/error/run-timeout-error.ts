import { FrameworkError } from "@framework/core";

const name = "RunTimeoutError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * `result(runId, { timeoutMs })` gave up waiting. The run itself goes on; ask again later.
 */
export class RunTimeoutError extends FrameworkError {
  private readonly [symbol] = true;

  /** The run waited for. */
  declare readonly runId: string;
  /** How long `result` waited. */
  declare readonly timeoutMs: number;
  /** The run's status when `result` gave up. */
  declare readonly status: string;

  constructor(options: { runId: string; timeoutMs: number; status: string; cause?: unknown }) {
    super({
      name,
      message: `Run ${options.runId} did not finish within ${options.timeoutMs} ms (it is ${options.status}); it goes on`,
      cause: options.cause,
      fields: { runId: options.runId, timeoutMs: options.timeoutMs, status: options.status },
    });
  }

  static override isInstance(error: unknown): error is RunTimeoutError {
    return FrameworkError.hasMarker(error, marker);
  }
}
