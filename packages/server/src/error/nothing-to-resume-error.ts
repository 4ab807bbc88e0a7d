import { FrameworkError } from "@framework/core";

const name = "NothingToResumeError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** A run answers interrupts (`command.resume`) on a thread that waits for none. */
export class NothingToResumeError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 409;
  /** The thread. */
  declare readonly threadId: string;
  /** The thread's status, e.g. `"idle"`. */
  declare readonly threadStatus: string;

  constructor(options: { threadId: string; threadStatus: string }) {
    super({
      name,
      message: `Thread ${options.threadId} has no pending interrupt to resume (it is ${options.threadStatus})`,
      fields: { status: 409, threadId: options.threadId, threadStatus: options.threadStatus },
    });
  }

  static override isInstance(error: unknown): error is NothingToResumeError {
    return FrameworkError.hasMarker(error, marker);
  }
}
