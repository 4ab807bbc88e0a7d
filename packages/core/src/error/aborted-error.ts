import { FrameworkError } from "./framework-error.js";

const name = "AbortedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** Work stopped because its AbortSignal fired. `cause` holds the signal's reason. */
export class AbortedError extends FrameworkError {
  private readonly [symbol] = true;

  /** What was running, e.g. `"chat completion"`, `"agent run"`, `"node market"`. */
  declare readonly operation: string;

  constructor({ operation, cause }: { operation: string; cause?: unknown }) {
    super({ name, message: `${operation} was aborted`, cause, fields: { operation } });
  }

  static override isInstance(error: unknown): error is AbortedError {
    return FrameworkError.hasMarker(error, marker);
  }

  /** Throws an {@link AbortedError} when `signal` has fired. */
  static throwIfAborted(signal: AbortSignal | undefined, operation: string): void {
    if (signal?.aborted) throw new AbortedError({ operation, cause: signal.reason });
  }
}
