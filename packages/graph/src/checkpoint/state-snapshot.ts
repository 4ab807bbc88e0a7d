import { deepFreeze } from "../state/deep-freeze.js";
import type { StateRecord } from "../state/state-engine.js";
import type {
  CheckpointError,
  CheckpointInterrupt,
  CheckpointSource,
  RunStatus,
} from "./checkpoint.js";
import type { ThreadPoint } from "./checkpoint-format.js";

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
  readonly checkpoint?: {
    readonly id: string;
    readonly parentId: string | null;
    readonly seq: number;
    readonly runId: string;
    readonly createdAt: string;
    readonly source: CheckpointSource;
    readonly node?: string;
    readonly metadata: Readonly<Record<string, unknown>>;
  };
  /** Why the run stopped, for a failed or cancelled run. */
  readonly error?: CheckpointError;
  /** What the run waits for, for an interrupted run: answer with `resume(answer)`. */
  readonly interrupts?: readonly CheckpointInterrupt[];
}

/** The snapshot of one point of a thread, or of an empty thread holding `initial`. */
export function toStateSnapshot<S>(
  threadId: string,
  point: ThreadPoint | undefined,
  initial: StateRecord,
): StateSnapshot<S> {
  if (!point) return { threadId, values: deepFreeze(initial) as S, next: [], status: "new" };
  const { checkpoint } = point;
  return {
    threadId,
    values: deepFreeze(point.values) as S,
    next: [...point.running, ...point.pending],
    status: checkpoint.status,
    checkpoint: {
      id: checkpoint.id,
      parentId: checkpoint.parentId,
      seq: checkpoint.seq,
      runId: checkpoint.runId,
      createdAt: checkpoint.createdAt,
      source: checkpoint.source,
      ...(checkpoint.node === undefined ? {} : { node: checkpoint.node }),
      metadata: checkpoint.metadata,
    },
    ...(checkpoint.error === undefined ? {} : { error: checkpoint.error }),
    ...(checkpoint.interrupts === undefined ? {} : { interrupts: checkpoint.interrupts }),
  };
}
