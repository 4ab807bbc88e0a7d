import type { Checkpoint } from "./checkpoint.js";

/** Options of {@link Checkpointer.list}. */
export interface ListCheckpointsOptions {
  /** Only checkpoints with a `seq` below this. */
  beforeSeq?: number;
  /** At most this many. */
  limit?: number;
}

/**
 * Where a graph saves its checkpoints: one ordered log per thread. Checkpoints are plain
 * JSON, so a saver may store them as text in a file, SQLite or Postgres (a table keyed by
 * thread id and `seq` is enough). Run `runCheckpointerConformance` from
 * `@framework/graph/conformance` against a new saver.
 */
export interface Checkpointer {
  /** The thread's newest checkpoint, or `undefined` for a thread never written. */
  getLatest(threadId: string): Promise<Checkpoint | undefined>;
  /**
   * Appends a checkpoint to its thread. Must refuse, with `CheckpointConflictError`, a `seq`
   * not above the thread's newest (two runs writing one thread).
   */
  put(checkpoint: Checkpoint): Promise<void>;
  /** The thread's checkpoints, newest first. */
  list(threadId: string, options?: ListCheckpointsOptions): AsyncIterable<Checkpoint>;
  /** Forgets a thread entirely. */
  deleteThread(threadId: string): Promise<void>;
}
