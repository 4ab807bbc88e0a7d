import type { StateRecord } from "../state/state-definition.js";
import type { CheckpointError, RunStatus } from "./checkpoint.js";
import type { ThreadStep } from "./thread-history.js";

/** What `getState` reports about a thread at one checkpoint. */
export interface StateSnapshot<S = StateRecord> {
  readonly threadId: string;
  /** The full state. */
  readonly values: S;
  /** Nodes that run next if the thread is resumed (empty once done). */
  readonly next: readonly string[];
  /** The run's status; `"new"` for a thread never run. */
  readonly status: RunStatus | "new";
  /** The checkpoint this snapshot comes from; absent for a thread never run. */
  readonly checkpoint?: {
    readonly id: string;
    readonly seq: number;
    readonly createdAt: string;
    readonly source: "input" | "node" | "stop";
    readonly node?: string;
  };
  /** Why the run stopped, for a failed or cancelled run. */
  readonly error?: CheckpointError;
}

/** The snapshot of one replayed step, or of an empty thread holding `initial`. */
export function toStateSnapshot<S>(
  threadId: string,
  step: ThreadStep | undefined,
  initial: StateRecord,
): StateSnapshot<S> {
  if (!step) return { threadId, values: initial as S, next: [], status: "new" };
  const { checkpoint } = step;
  return {
    threadId,
    values: step.values as S,
    next: [...checkpoint.frontier.running, ...checkpoint.frontier.pending],
    status: checkpoint.status,
    checkpoint: {
      id: checkpoint.id,
      seq: checkpoint.seq,
      createdAt: checkpoint.createdAt,
      source: checkpoint.source,
      ...(checkpoint.node === undefined ? {} : { node: checkpoint.node }),
    },
    ...(checkpoint.error === undefined ? {} : { error: checkpoint.error }),
  };
}
