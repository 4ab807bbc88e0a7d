import type { Checkpoint } from "@framework/graph";

/**
 * A checkpoint of `threadId` at `seq` carrying `writes`, as a graph run would write it; the id
 * is derived from both so a test can find it again.
 */
export function testCheckpoint(
  threadId: string,
  seq: number,
  writes: Record<string, unknown> = {},
): Checkpoint {
  return {
    version: 1,
    threadId,
    id: `${threadId}-${seq}`,
    parentId: seq === 0 ? null : `${threadId}-${seq - 1}`,
    seq,
    runId: "run-1",
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, seq)).toISOString(),
    source: seq === 0 ? "input" : "node",
    writes,
    frontier: { pending: [], running: [], visits: {} },
    status: "running",
    metadata: {},
  };
}
