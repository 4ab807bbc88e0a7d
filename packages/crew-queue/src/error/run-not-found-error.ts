import { FrameworkError } from "@framework/core";

const name = "RunNotFoundError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** No run has this id (in this queue's Postgres schema). */
export class RunNotFoundError extends FrameworkError {
  private readonly [symbol] = true;

  /** The id asked for. */
  declare readonly runId: string;

  constructor(options: { runId: string; cause?: unknown }) {
    super({
      name,
      message: `No crew run "${options.runId}"`,
      cause: options.cause,
      fields: { runId: options.runId },
    });
  }

  static override isInstance(error: unknown): error is RunNotFoundError {
    return FrameworkError.hasMarker(error, marker);
  }
}
