import { FrameworkError } from "@framework/core";

const name = "PostgresFencedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A fenced `put` (see `PostgresSaver.fenced`) found no row matching its fence: the writer's
 * lease moved on (another process took the work over), so nothing was written.
 */
export class PostgresFencedError extends FrameworkError {
  private readonly [symbol] = true;

  /** The thread the refused checkpoint belonged to. */
  declare readonly threadId: string;
  /** The `seq` it would have taken. */
  declare readonly seq: number;
  /** The fence's table, as given. */
  declare readonly table: string;

  constructor(options: { threadId: string; seq: number; table: string }) {
    super({
      name,
      message:
        `Checkpoint ${options.seq} of thread "${options.threadId}" was not written: no row of ` +
        `${options.table} matches the writer's fence (its lease moved on)`,
      fields: { threadId: options.threadId, seq: options.seq, table: options.table },
    });
  }

  static override isInstance(error: unknown): error is PostgresFencedError {
    return FrameworkError.hasMarker(error, marker);
  }
}
