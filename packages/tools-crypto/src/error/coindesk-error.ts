import { FrameworkError } from "@framework/core";

const name = "CoinDeskError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A request to the CoinDesk data API failed, or its answer could not be used. The message
 * says why in words fit for the tool's result text, and never contains the API key.
 */
export class CoinDeskError extends FrameworkError {
  private readonly [symbol] = true;

  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ name, message, cause });
  }

  static override isInstance(error: unknown): error is CoinDeskError {
    return FrameworkError.hasMarker(error, marker);
  }
}
