/** Where a run stands: still going, finished, stopped by an error, or cancelled. */
export type RunStatus = "running" | "done" | "failed" | "cancelled";

/** The scheduler's position, enough to continue a stopped run where it stood. */
export interface CheckpointFrontier {
  /** Nodes triggered and waiting to start, in trigger order. */
  readonly pending: readonly string[];
  /** Nodes that were running; a resumed run starts them again. */
  readonly running: readonly string[];
  /** How many times each node has run in this run (loops raise it above 1). */
  readonly visits: Readonly<Record<string, number>>;
}

/** The error that stopped a run, as plain data. */
export interface CheckpointError {
  readonly name: string;
  readonly message: string;
  /** The node that failed, when one did. */
  readonly node?: string;
}

/**
 * One saved step of a thread, plain JSON. A checkpoint records what changed, not the whole
 * state: `writes` holds the keys one node wrote (for reducer keys, the update it returned),
 * and the thread's first checkpoint holds `base`, the state before anything was written.
 * The state at a checkpoint is `base` with every `writes` up to it replayed in `seq` order.
 */
export interface Checkpoint {
  /** Format version, raised when the shape changes. */
  readonly version: 1;
  readonly threadId: string;
  /** Unique id (a UUID). */
  readonly id: string;
  /** The id of the previous checkpoint of the thread, `null` for the first. */
  readonly parentId: string | null;
  /** Position in the thread: 0 for the first, then +1 each; savers keep it strictly rising. */
  readonly seq: number;
  /** The run that wrote it; a resumed run keeps its id. */
  readonly runId: string;
  /** ISO 8601 time of writing. */
  readonly createdAt: string;
  /** `input`: a run started; `node`: a node ended; `stop`: the run failed or was cancelled. */
  readonly source: "input" | "node" | "stop";
  /** The node that ended (source `node`), or that failed (source `stop`). */
  readonly node?: string;
  /** The full state before the first write; only on a thread's first checkpoint. */
  readonly base?: Readonly<Record<string, unknown>>;
  /** The keys written at this step. */
  readonly writes: Readonly<Record<string, unknown>>;
  readonly frontier: CheckpointFrontier;
  readonly status: RunStatus;
  readonly error?: CheckpointError;
  /** Run facts worth querying, e.g. `user_id`. */
  readonly metadata: Readonly<Record<string, unknown>>;
}
