import { FrameworkError } from "@framework/core";

const name = "CheckpointConflictError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A checkpoint was refused because its thread already holds one at or after its sequence
 * number: two runs wrote the same thread at once.
 */
export class CheckpointConflictError extends FrameworkError {
  private readonly [symbol] = true;

  readonly threadId: string;
  readonly seq: number;
  readonly latestSeq: number;

  constructor({ threadId, seq, latestSeq }: { threadId: string; seq: number; latestSeq: number }) {
    super({
      name,
      message:
        `Checkpoint ${seq} of thread "${threadId}" refused: the thread is already at checkpoint ` +
        `${latestSeq}; another run is writing this thread`,
    });
    this.threadId = threadId;
    this.seq = seq;
    this.latestSeq = latestSeq;
  }

  static override isInstance(error: unknown): error is CheckpointConflictError {
    return FrameworkError.hasMarker(error, marker);
  }
}
