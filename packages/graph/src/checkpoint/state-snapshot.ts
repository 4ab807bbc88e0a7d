import { deepFreeze } from "../state/deep-freeze.js";
import type { StateRecord } from "../state/state-engine.js";
import type {
  CheckpointError,
  CheckpointSource,
  PendingInterrupt,
  RunStatus,
  StoredCheckpoint,
} from "./checkpoint.js";
import { pendingInterrupts, type ThreadPoint } from "./checkpoint-format.js";

/**
 * A checkpoint as `getState` reports it (and `updateState` returns it). Pass its `id` as
 * `configurable.checkpoint_id` to read or continue the thread from there.
 */
export interface StateCheckpoint {
  readonly id: string;
  readonly parentId: string | null;
  readonly seq: number;
  readonly runId: string;
  readonly createdAt: string;
  readonly source: CheckpointSource;
  readonly node?: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** What `getState` reports about a thread at one checkpoint. */
export interface StateSnapshot<S = StateRecord> {
  readonly threadId: string;
  /** The full state, deep-frozen: read-only, like the state a node is given. */
  readonly values: S;
  /** Nodes that run next if the thread is resumed (empty once done). */
  readonly next: readonly string[];
  /** The run's status; `"new"` for a thread never run. */
  readonly status: RunStatus | "new";
  /**
   * The checkpoint this snapshot comes from; absent for a thread never run. Pass its `id` as
   * `configurable.checkpoint_id` to read or continue the thread from here.
   */
  readonly checkpoint?: StateCheckpoint;
  /** Why the run stopped, for a failed or cancelled run. */
  readonly error?: CheckpointError;
  /**
   * What the run waits for, for an interrupted run, in the order asked: answer the first
   * with `resume(answer)`, or any of them by id with `resumeByIds({ [id]: answer })`.
   */
  readonly interrupts?: readonly PendingInterrupt[];
}

/** How `getState` reports `checkpoint`. */
export function stateCheckpointOf(checkpoint: StoredCheckpoint): StateCheckpoint {
  return {
    id: checkpoint.id,
    parentId: checkpoint.parentId,
    seq: checkpoint.seq,
    runId: checkpoint.runId,
    createdAt: checkpoint.createdAt,
    source: checkpoint.source,
    ...(checkpoint.node === undefined ? {} : { node: checkpoint.node }),
    metadata: checkpoint.metadata,
  };
}

/** The snapshot of one point of a thread, or of an empty thread holding `initial`. */
export function toStateSnapshot<S>(
  threadId: string,
  point: ThreadPoint | undefined,
  initial: StateRecord,
): StateSnapshot<S> {
  if (!point) return { threadId, values: deepFreeze(initial) as S, next: [], status: "new" };
  const { checkpoint } = point;
  const interrupts = pendingInterrupts(checkpoint);
  return {
    threadId,
    values: deepFreeze(point.values) as S,
    next: [...point.running, ...point.pending],
    status: checkpoint.status,
    checkpoint: stateCheckpointOf(checkpoint),
    ...(checkpoint.error === undefined ? {} : { error: checkpoint.error }),
    ...(interrupts.length === 0 ? {} : { interrupts }),
  };
}
