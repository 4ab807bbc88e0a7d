import type { ThreadState } from "../api/wire.js";

/** A checkpoint placed on the thread's timeline: its branch (0 is the first) and its step. */
export interface TimelinePoint {
  readonly state: ThreadState;
  readonly id: string;
  readonly parentId: string | undefined;
  readonly branch: number;
}

/**
 * Lays a thread's checkpoints (`POST /threads/{id}/history`, newest first) out oldest first,
 * each on a branch: a checkpoint continues its parent's branch unless another checkpoint
 * already did, in which case it starts a new one (a fork: a run from an earlier checkpoint).
 */
export function timeline(history: readonly ThreadState[]): TimelinePoint[] {
  const oldestFirst = history
    .filter((state) => state.checkpoint.checkpoint_id !== null)
    .slice()
    .reverse();
  const branchOf = new Map<string, number>();
  const continued = new Set<string>();
  let branches = 0;
  return oldestFirst.map((state) => {
    const id = state.checkpoint.checkpoint_id!;
    const parentId = state.parent_checkpoint?.checkpoint_id ?? undefined;
    let branch: number;
    if (parentId !== undefined && branchOf.has(parentId) && !continued.has(parentId)) {
      branch = branchOf.get(parentId)!;
    } else {
      branch = branches;
      branches += 1;
    }
    if (parentId !== undefined) continued.add(parentId);
    branchOf.set(id, branch);
    return { state, id, parentId, branch };
  });
}
