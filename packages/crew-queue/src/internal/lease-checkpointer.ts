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
  return saver.fenced(({ runId }) => {
    const epoch = leases.get(runId);
    if (epoch === undefined) throw new LeaseLostError({ runId });
    return { table: runsTable, where: { run_id: runId, lease_epoch: epoch } };
  });
}
