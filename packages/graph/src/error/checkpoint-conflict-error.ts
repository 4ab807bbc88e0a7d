import { FrameworkError } from "@framework/core";

const name = "CheckpointConflictError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A checkpoint was refused because its `seq` is not the thread's newest plus one: another run
 * wrote the thread first (or two clients raced for the same `seq`).
 */
export class CheckpointConflictError extends FrameworkError {
  private readonly [symbol] = true;

  declare readonly threadId: string;
  declare readonly seq: number;
  /** The thread's newest `seq` when the checkpoint was refused; -1 for an empty thread. */
  declare readonly latestSeq: number;

  constructor({ threadId, seq, latestSeq }: { threadId: string; seq: number; latestSeq: number }) {
    super({
      name,
      message:
        `Checkpoint ${seq} of thread "${threadId}" refused: the thread is at checkpoint ` +
        `${latestSeq < 0 ? "none" : latestSeq}, so the next must be ${latestSeq + 1}; ` +
        "another run is writing this thread",
      fields: { threadId, seq, latestSeq },
    });
  }

  static override isInstance(error: unknown): error is CheckpointConflictError {
    return FrameworkError.hasMarker(error, marker);
  }
}
