import { FrameworkError } from "@framework/core";

const name = "RequestTooLargeError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** The request body is over the server's limit (`bodyLimitBytes`, 1 MiB by default). */
export class RequestTooLargeError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 413;
  /** The limit, in bytes. */
  declare readonly limitBytes: number;

  constructor(options: { limitBytes: number }) {
    super({
      name,
      message: `The request body is over the limit of ${options.limitBytes} bytes`,
      fields: { status: 413, limitBytes: options.limitBytes },
    });
  }

  static override isInstance(error: unknown): error is RequestTooLargeError {
    return FrameworkError.hasMarker(error, marker);
  }
}
