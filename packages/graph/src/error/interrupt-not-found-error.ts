import { FrameworkError } from "@framework/core";

const name = "InterruptNotFoundError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * `resumeByIds(answers)` named ids the thread does not wait on (or named none). Nothing ran
 * and the thread is unchanged; its pending interrupts are in `getState().interrupts`.
 */
export class InterruptNotFoundError extends FrameworkError {
  private readonly [symbol] = true;

  declare readonly threadId: string;
  /** The ids given that name no pending interrupt; empty when none was given. */
  declare readonly interruptIds: readonly string[];
  /** The ids of the interrupts the thread waits on. */
  declare readonly pendingIds: readonly string[];

  constructor({
    threadId,
    interruptIds,
    pendingIds,
  }: {
    threadId: string;
    interruptIds: readonly string[];
    pendingIds: readonly string[];
  }) {
    const named =
      interruptIds.length === 0
        ? "names no interrupt"
        : `names ${interruptIds.map((id) => `"${id}"`).join(", ")}, which the thread does not wait on`;
    const pending =
      pendingIds.length === 0
        ? "it waits on none"
        : `it waits on ${pendingIds.map((id) => `"${id}"`).join(", ")}`;
    super({
      name,
      message: `resumeByIds on thread "${threadId}" ${named} (${pending})`,
      fields: { threadId, interruptIds, pendingIds },
    });
  }

  static override isInstance(error: unknown): error is InterruptNotFoundError {
    return FrameworkError.hasMarker(error, marker);
  }
}
