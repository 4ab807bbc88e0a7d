import type { Checkpoint } from "@framework/graph";

/**
 * A checkpoint of `threadId` at `seq` carrying `writes`, as a graph run would write it; the id
 * is derived from both so a test can find it again. The conformance suite's `checkpointAt`
 * does the same, but child processes cannot load that entry point (it registers vitest tests).
 */
export function testCheckpoint(
  threadId: string,
  seq: number,
  writes: Record<string, unknown> = {},
): Checkpoint {
  return {
    version: 2,
    threadId,
    id: `${threadId}-${seq}`,
    parentId: seq === 0 ? null : `${threadId}-${seq - 1}`,
    seq,
    runId: "run-1",
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, seq)).toISOString(),
    source: seq === 0 ? "input" : "node",
    writes,
    frontier: {},
    snapshotSeq: 0,
    ...(seq === 0
      ? { snapshot: { values: {}, frontier: { pending: [], running: [], visits: {} } } }
      : {}),
    status: "running",
    metadata: {},
  };
}

/**
 * What a writer in a crash test puts at `seq`: a payload whose size varies (up to about
 * 100 kB, so some writes span many database pages) and whose content tells whether it was
 * stored whole.
 */
export function crashPayload(seq: number): { text: string; length: number } {
  const length = ((seq * 7919) % 25) * 4096 + (seq % 13);
  return { text: String(seq % 10).repeat(length), length };
}
