import { FrameworkError } from "@framework/core";

const name = "ThreadBusyConflictError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A run was created on a thread that is running another one, with `multitask_strategy:
 * "reject"` (the default). Choose `enqueue`, `interrupt` or `rollback` to run it anyway.
 */
export class ThreadBusyConflictError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 409;
  /** The busy thread. */
  declare readonly threadId: string;
  /** The runs holding it. */
  declare readonly activeRunIds: readonly string[];

  constructor(options: { threadId: string; activeRunIds: readonly string[] }) {
    super({
      name,
      message: `Thread ${options.threadId} is already running ${options.activeRunIds.join(", ")}; wait for it, or create the run with multitask_strategy "enqueue", "interrupt" or "rollback"`,
      fields: { status: 409, threadId: options.threadId, activeRunIds: options.activeRunIds },
    });
  }

  static override isInstance(error: unknown): error is ThreadBusyConflictError {
    return FrameworkError.hasMarker(error, marker);
  }
}
