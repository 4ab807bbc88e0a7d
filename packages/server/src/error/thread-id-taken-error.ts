import { FrameworkError } from "@framework/core";

const name = "ThreadIdTakenError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A thread was created with an id that is already a thread's (`if_exists: "raise"`, the
 * default). Ids are unique across users, so this says nothing about whose it is.
 */
export class ThreadIdTakenError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 409;
  /** The id asked for. */
  declare readonly threadId: string;

  constructor(options: { threadId: string }) {
    super({
      name,
      message: `Thread id ${options.threadId} is taken; choose another, or create with if_exists "do_nothing" to reuse your own`,
      fields: { status: 409, threadId: options.threadId },
    });
  }

  static override isInstance(error: unknown): error is ThreadIdTakenError {
    return FrameworkError.hasMarker(error, marker);
  }
}
