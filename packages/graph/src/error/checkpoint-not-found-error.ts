import { FrameworkError } from "@framework/core";

const name = "CheckpointNotFoundError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** `configurable.checkpoint_id` names a checkpoint the thread does not hold. */
export class CheckpointNotFoundError extends FrameworkError {
  private readonly [symbol] = true;

  declare readonly threadId: string;
  declare readonly checkpointId: string;

  constructor({ threadId, checkpointId }: { threadId: string; checkpointId: string }) {
    super({
      name,
      message: `Thread "${threadId}" has no checkpoint "${checkpointId}"`,
      fields: { threadId, checkpointId },
    });
  }

  static override isInstance(error: unknown): error is CheckpointNotFoundError {
    return FrameworkError.hasMarker(error, marker);
  }
}
