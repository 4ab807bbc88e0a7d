import { FrameworkError } from "./framework-error.js";
import { ModelCallError } from "./model-call-error.js";

const name = "ModelTimeoutError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A chat model call got no (complete) answer within its timeout. `kind` is `"timeout"` and
 * `retryable` is true, but the call is not retried automatically, so the timeout bounds a
 * hanging call.
 */
export class ModelTimeoutError extends ModelCallError {
  private readonly [symbol] = true;

  /** The timeout that expired, in milliseconds. */
  declare readonly timeoutMs: number;

  constructor({
    provider,
    modelId,
    attempts,
    timeoutMs,
  }: { provider: string; modelId: string; attempts: number; timeoutMs: number }) {
    super(
      {
        kind: "timeout",
        provider,
        modelId,
        retryable: true,
        attempts,
        upstreamMessage: `no answer within ${timeoutMs} ms`,
      },
      name,
      { timeoutMs },
    );
  }

  static override isInstance(error: unknown): error is ModelTimeoutError {
    return FrameworkError.hasMarker(error, marker);
  }
}
