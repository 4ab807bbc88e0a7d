import type { StateSnapshot } from "@framework/graph";
import type { ServedAssistant } from "../assistant/served-assistant.js";
import type { JsonObject, ThreadRecord } from "../store/server-store.js";
import { type WireInterrupt, wireInterrupts } from "./wire-interrupt.js";

/** A thread's state at one checkpoint, read through its assistant's graph. */
export interface ThreadStateView {
  readonly snapshot: StateSnapshot;
  /** The values as the wire shows them. */
  readonly values: JsonObject;
  /** What the thread waits on there, if anything. */
  readonly interrupts: readonly WireInterrupt[];
}

/**
 * The thread's state at `checkpointId`, else at its head: the checkpoint a rollback returned
 * it to, or its newest.
 *
 * @throws CheckpointNotFoundError when `checkpointId` is not one of the thread's checkpoints.
 */
export async function readThreadState(
  assistant: ServedAssistant,
  thread: ThreadRecord,
  checkpointId?: string,
): Promise<ThreadStateView> {
  const at = checkpointId ?? thread.head ?? undefined;
  const snapshot = await assistant.graph.getState({
    configurable: {
      thread_id: thread.threadId,
      ...(at === undefined ? {} : { checkpoint_id: at }),
    },
  });
  return {
    snapshot,
    values: assistant.toWire(snapshot.values),
    interrupts: wireInterrupts(snapshot),
  };
}
