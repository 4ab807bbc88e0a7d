import type { StateDefinition, StateRecord } from "../state/state-definition.js";
import type { Checkpoint } from "./checkpoint.js";
import type { Checkpointer } from "./checkpointer.js";

/** A checkpoint together with the full state it stands for. */
export interface ThreadStep {
  readonly checkpoint: Checkpoint;
  readonly values: StateRecord;
}

/**
 * Rebuilds the full state at every checkpoint of a thread, oldest first, by replaying each
 * checkpoint's writes over the thread's base. Consecutive states share unchanged values, so
 * the whole history costs about as much memory as the writes themselves.
 */
export async function replayThread(
  checkpointer: Checkpointer,
  threadId: string,
  definition: StateDefinition,
): Promise<ThreadStep[]> {
  const newestFirst: Checkpoint[] = [];
  for await (const checkpoint of checkpointer.list(threadId)) newestFirst.push(checkpoint);
  const steps: ThreadStep[] = [];
  let values = definition.initialValues();
  for (const checkpoint of newestFirst.reverse()) {
    if (checkpoint.base) values = Object.freeze({ ...checkpoint.base });
    values = definition.replay(values, checkpoint.writes);
    steps.push({ checkpoint, values });
  }
  return steps;
}
