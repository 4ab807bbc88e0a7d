import { FrameworkError } from "@framework/core";

const name = "CorruptThreadError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A thread's checkpoints cannot be read back into a state: a checkpoint is missing from the
 * log, one names a snapshot that is not there, or its format version is unknown. Nothing is
 * written to such a thread.
 */
export class CorruptThreadError extends FrameworkError {
  private readonly [symbol] = true;

  declare readonly threadId: string;
  /** The checkpoint being read when the problem showed. */
  declare readonly seq: number;

  constructor({ threadId, seq, reason }: { threadId: string; seq: number; reason: string }) {
    super({
      name,
      message: `Thread "${threadId}" cannot be read at checkpoint ${seq}: ${reason}`,
      fields: { threadId, seq },
    });
  }

  static override isInstance(error: unknown): error is CorruptThreadError {
    return FrameworkError.hasMarker(error, marker);
  }
}
