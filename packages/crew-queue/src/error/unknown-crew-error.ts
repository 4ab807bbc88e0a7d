import { FrameworkError } from "@framework/core";

const name = "UnknownCrewError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A worker took a run of a crew it has no factory for. The run fails (it is not retried on
 * this worker); deploy workers that know every crew the queue is given.
 */
export class UnknownCrewError extends FrameworkError {
  private readonly [symbol] = true;

  /** The crew the run names. */
  declare readonly crew: string;
  /** The crews this worker runs. */
  declare readonly known: readonly string[];

  constructor(options: { crew: string; known: readonly string[]; cause?: unknown }) {
    super({
      name,
      message: `This worker runs no crew "${options.crew}" (it knows ${options.known.map((name) => `"${name}"`).join(", ") || "none"})`,
      cause: options.cause,
      fields: { crew: options.crew, known: options.known },
    });
  }

  static override isInstance(error: unknown): error is UnknownCrewError {
    return FrameworkError.hasMarker(error, marker);
  }
}
