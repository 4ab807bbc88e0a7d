import type { PostgresFence, PostgresSaver } from "@framework/checkpoint-postgres";
import type { Checkpoint } from "@framework/graph";
import { checkpointAt } from "@framework/graph/conformance";
import { describe, expect, it } from "vitest";
import { LeaseLostError } from "../error/lease-lost-error.js";
import { leaseCheckpointer } from "./lease-checkpointer.js";

/** A saver that records the fences its puts went through. */
function recordingSaver() {
  const puts: { fence: PostgresFence; checkpoint: Checkpoint }[] = [];
  const saver = {
    fenced: (fence: PostgresFence | ((checkpoint: Checkpoint) => PostgresFence)) => ({
      put: async (checkpoint: Checkpoint) => {
        puts.push({ fence: typeof fence === "function" ? fence(checkpoint) : fence, checkpoint });
      },
    }),
  } as unknown as PostgresSaver;
  return { saver, puts };
}

describe("leaseCheckpointer", () => {
  it("fences each put by the lease held on that checkpoint's run", async () => {
    const { saver, puts } = recordingSaver();
    const leases = new Map([
      ["run-1", 3],
      ["run-2", 1],
    ]);
    const checkpointer = leaseCheckpointer(saver, leases);
    await checkpointer.put({ ...checkpointAt("t1", 0), runId: "run-1" });
    await checkpointer.put({ ...checkpointAt("t2", 0), runId: "run-2" });
    expect(puts.map((put) => put.fence)).toEqual([
      { table: "crew_runs", where: { run_id: "run-1", lease_epoch: 3 } },
      { table: "crew_runs", where: { run_id: "run-2", lease_epoch: 1 } },
    ]);
  });

  it("refuses a put for a run the worker does not hold, writing nothing", async () => {
    const { saver, puts } = recordingSaver();
    const checkpointer = leaseCheckpointer(saver, new Map());
    const refused = await checkpointer
      .put({ ...checkpointAt("t", 0), runId: "gone" })
      .catch((error: unknown) => error);
    expect(LeaseLostError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ runId: "gone" });
    expect(puts).toEqual([]);
  });
});
