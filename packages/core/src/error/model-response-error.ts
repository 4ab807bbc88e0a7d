import { FrameworkError } from "./framework-error.js";
import { ModelCallError } from "./model-call-error.js";

const name = "ModelResponseError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The provider answered with success but the body is not a valid chat completion (not
 * JSON, or JSON of the wrong shape). `kind` is `"invalid_response"`; not retried.
 */
export class ModelResponseError extends ModelCallError {
  private readonly [symbol] = true;

  constructor({
    provider,
    modelId,
    attempts,
    detail,
  }: {
    provider: string;
    modelId: string;
    attempts: number;
    /** What is wrong with the body, e.g. `"body is not JSON"`. */
    detail: string;
  }) {
    super(
      {
        kind: "invalid_response",
        provider,
        modelId,
        retryable: false,
        attempts,
        upstreamMessage: detail,
      },
      name,
    );
  }

  static override isInstance(error: unknown): error is ModelResponseError {
    return FrameworkError.hasMarker(error, marker);
  }
}
