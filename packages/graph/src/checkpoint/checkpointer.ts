import type { Checkpoint, StoredCheckpoint } from "./checkpoint.js";

/** Options of {@link Checkpointer.list}. */
export interface ListCheckpointsOptions {
  /** Only checkpoints with a `seq` below this. */
  beforeSeq?: number;
  /** At most this many. */
  limit?: number;
}

/**
 * Where a graph saves its checkpoints: one gap-free log per thread, ordered by `seq`.
 * Checkpoints are plain JSON, so a saver may store them as text in a file, SQLite or
 * Postgres (a table keyed by thread id and `seq`, with a unique id column, is enough). What a
 * saver returns must equal what was put, to the last character and key order. Run
 * `runCheckpointerConformance` from `@framework/graph/conformance` against a new saver.
 *
 * The graph reads a thread through `getLatest` and a bounded `list`: it never needs more than
 * the checkpoints since the newest snapshot.
 */
export interface Checkpointer {
  /** The thread's newest checkpoint, or `undefined` for a thread never written. */
  getLatest(threadId: string): Promise<StoredCheckpoint | undefined>;
  /** The thread's checkpoint with this `id`, or `undefined`. */
  get(threadId: string, checkpointId: string): Promise<StoredCheckpoint | undefined>;
  /**
   * Appends a checkpoint to its thread. Its `seq` must be the thread's newest plus one (0 for
   * an empty thread); anything else is refused with `CheckpointConflictError`, atomically, so
   * of two clients putting the same `seq` exactly one succeeds.
   */
  put(checkpoint: Checkpoint): Promise<void>;
  /** The thread's checkpoints, newest first, optionally below `beforeSeq` and at most `limit`. */
  list(threadId: string, options?: ListCheckpointsOptions): AsyncIterable<StoredCheckpoint>;
  /** Forgets a thread entirely. */
  deleteThread(threadId: string): Promise<void>;
}
