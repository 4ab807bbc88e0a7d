import { FrameworkError } from "@framework/core";

const name = "EmptyOutlineError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

// Enough of the reply to see what the model wrote instead, without flooding a log line.
const excerptLength = 300;

/**
 * The planner's reply held no chapter: no block, after splitting on blank lines, began with
 * digits, a dot and a space. `reply` is what the model wrote.
 */
export class EmptyOutlineError extends FrameworkError {
  private readonly [symbol] = true;

  /** The planner's whole reply. */
  declare readonly reply: string;

  constructor({ reply }: { reply: string }) {
    const excerpt =
      reply.length > excerptLength ? `${reply.slice(0, excerptLength)}…` : reply || "(empty)";
    super({
      name,
      message: `The planner's outline held no numbered chapter (a block beginning with "1. "), so there is nothing to write. The model replied: ${excerpt}`,
      fields: { reply },
    });
  }

  static override isInstance(error: unknown): error is EmptyOutlineError {
    return FrameworkError.hasMarker(error, marker);
  }
}
