import type { PostgresSaver } from "@framework/checkpoint-postgres";
import type { Checkpointer } from "@framework/graph";
import { LeaseLostError } from "../error/lease-lost-error.js";
import { runsTable } from "./run-store.js";

/**
 * A worker's checkpointer: reads are the saver's; each `put` is fenced by the lease this
 * worker holds on the checkpoint's run (`leases`: run id -> epoch), so one crew instance
 * serves every run the worker holds, and a run it no longer holds cannot be written.
 */
export function leaseCheckpointer(
  saver: PostgresSaver,
  leases: ReadonlyMap<string, number>,
): Checkpointer {
  return {
    getLatest: (threadId) => saver.getLatest(threadId),
    get: (threadId, checkpointId) => saver.get(threadId, checkpointId),
    list: (threadId, options) => saver.list(threadId, options),
    deleteThread: (threadId) => saver.deleteThread(threadId),
    put: async (checkpoint) => {
      const epoch = leases.get(checkpoint.runId);
      if (epoch === undefined) throw new LeaseLostError({ runId: checkpoint.runId });
      await saver
        .fenced({ table: runsTable, where: { run_id: checkpoint.runId, lease_epoch: epoch } })
        .put(checkpoint);
    },
  };
}
