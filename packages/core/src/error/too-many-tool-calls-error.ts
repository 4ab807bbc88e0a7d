import { FrameworkError } from "./framework-error.js";

const name = "TooManyToolCallsError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** A model reply asked for more tool calls than an agent runs per reply; the excess did not run. */
export class TooManyToolCallsError extends FrameworkError {
  private readonly [symbol] = true;

  /** How many calls the reply asked for. */
  declare readonly requested: number;
  /** How many of them ran. */
  declare readonly limit: number;

  constructor({ requested, limit }: { requested: number; limit: number }) {
    super({
      name,
      message: `The reply asked for ${requested} tool calls; only the first ${limit} run per reply. Ask again for the ones still needed.`,
      fields: { requested, limit },
    });
  }

  static override isInstance(error: unknown): error is TooManyToolCallsError {
    return FrameworkError.hasMarker(error, marker);
  }
}
