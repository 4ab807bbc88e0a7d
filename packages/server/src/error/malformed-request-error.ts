import { FrameworkError } from "@framework/core";

const name = "MalformedRequestError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** The request body is not JSON (or not the JSON object a route takes). */
export class MalformedRequestError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 400;
  /** What the parser said. */
  declare readonly reason: string;

  constructor(options: { reason: string }) {
    super({
      name,
      message: `The request body is not valid JSON: ${options.reason}`,
      fields: { status: 400, reason: options.reason },
    });
  }

  static override isInstance(error: unknown): error is MalformedRequestError {
    return FrameworkError.hasMarker(error, marker);
  }
}
