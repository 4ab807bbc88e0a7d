/**
 * Where a run stands: still going, finished, stopped by an error, cancelled, or paused by a
 * node's `context.interrupt` until `resume(answer)`.
 */
export type RunStatus = "running" | "done" | "failed" | "cancelled" | "interrupted";

/** A question a node asked with `context.interrupt(value)`, waiting for an answer. */
export interface CheckpointInterrupt {
  /**
   * The question's id, what `resumeByIds` answers it by: a hash of the thread, the run, the
   * node, its visit and the question's place among the node's questions, so a question asked
   * again (its node re-run after another node's answer) keeps its id. Absent on checkpoints
   * written before ids were stored; they are derived on reading (see `PendingInterrupt`).
   */
  readonly id?: string;
  readonly node: string;
  readonly value: unknown;
}

/** A question waiting for an answer, with its id: what `getState` and `stream` report. */
export interface PendingInterrupt extends CheckpointInterrupt {
  readonly id: string;
}

/** The scheduler's whole position, enough to continue a stopped run where it stood. */
export interface CheckpointFrontier {
  /** Nodes triggered and waiting to start, in trigger order. */
  readonly pending: readonly string[];
  /** Nodes that were running; a resumed run starts them again. */
  readonly running: readonly string[];
  /**
   * How many times each node that may still start has run in this run (loops raise it
   * above 1). Nodes upstream of every active one can never start again, so a snapshot
   * leaves their counts out. A node running its first visit has no count yet (1 is implied):
   * it is counted when it ends.
   */
  readonly visits: Readonly<Record<string, number>>;
}

/**
 * How the scheduler's position moved since the previous checkpoint, applied in this order:
 * `started` nodes leave the waiting list and run, `finished` ones stop running, `triggered`
 * ones join the end of the waiting list. An `input` checkpoint starts a run, so its delta
 * applies to an empty frontier.
 */
export interface FrontierDelta {
  readonly started?: readonly string[];
  readonly finished?: readonly string[];
  readonly triggered?: readonly string[];
  /** The new visit counts of the nodes that started again (a first visit, 1, is implied). */
  readonly visits?: Readonly<Record<string, number>>;
}

/** The full state and frontier at a checkpoint: where reading a thread can begin. */
export interface CheckpointSnapshot {
  readonly values: Readonly<Record<string, unknown>>;
  readonly frontier: CheckpointFrontier;
}

/** The error that stopped a run, as plain data. */
export interface CheckpointError {
  readonly name: string;
  readonly message: string;
  /** The node that failed, when one did. */
  readonly node?: string;
}

/**
 * What wrote a checkpoint: a run started (`input`), a node ended (`node`), the run failed,
 * was cancelled or was interrupted (`stop`), or `updateState` changed the thread's state
 * from outside a run (`update`; its `node` is the `asNode` it wrote as, if any).
 */
export type CheckpointSource = "input" | "node" | "stop" | "update";

/**
 * One saved step of a thread (format version 2), plain JSON whose size follows what changed
 * at the step, not the size of the state or the length of the run. `writes` holds the keys
 * one node wrote (for reducer keys, the update it returned) and `frontier` how the
 * scheduler's position moved. On a thread's first checkpoint, and once the checkpoints
 * since the last snapshot outweigh it (`snapshotRatio`), `snapshot` also holds the full
 * state and frontier, so a reader starts at the newest snapshot at or before the checkpoint
 * it wants (`snapshotSeq`) and applies what follows in `seq` order.
 */
export interface Checkpoint {
  /** Format version, raised when the shape changes. */
  readonly version: 2;
  readonly threadId: string;
  /** Unique id (a UUID). */
  readonly id: string;
  /** The checkpoint this one continues from, `null` for the first; after time travel, not the previous `seq`. */
  readonly parentId: string | null;
  /** Position in the thread: 0 for the first, then +1 each, without gaps. */
  readonly seq: number;
  /** The run that wrote it: `configurable.run_id` or a fresh UUID; a resumed run keeps its id. */
  readonly runId: string;
  /** ISO 8601 time of writing. */
  readonly createdAt: string;
  readonly source: CheckpointSource;
  /**
   * The node that ended (source `node`), that failed (source `stop`), or that an update
   * wrote as (source `update`).
   */
  readonly node?: string;
  /** The keys written at this step. */
  readonly writes: Readonly<Record<string, unknown>>;
  readonly frontier: FrontierDelta;
  /** The `seq` of the newest checkpoint holding a `snapshot`, at or before this one. */
  readonly snapshotSeq: number;
  /** Estimated JSON bytes of the checkpoint at `snapshotSeq`, its snapshot included. */
  readonly snapshotBytes: number;
  /** Estimated JSON bytes of the checkpoints after `snapshotSeq` up to this one (0 on a snapshot). */
  readonly bytesSinceSnapshot: number;
  /** The full state and frontier after this step, on every snapshot checkpoint. */
  readonly snapshot?: CheckpointSnapshot;
  readonly status: RunStatus;
  readonly error?: CheckpointError;
  /**
   * On an interrupted run's stop checkpoint (and an update of it): the questions waiting, in
   * the order asked.
   */
  readonly interrupts?: readonly CheckpointInterrupt[];
  /**
   * On a stop checkpoint (and an update of one): the answers each still-unfinished node
   * already received, in order, handed back to its `context.interrupt` calls when it runs
   * again.
   */
  readonly answers?: Readonly<Record<string, readonly unknown[]>>;
  /** Run facts worth querying: `user_id` and the config's `checkpointMetadata`. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * A checkpoint in format version 1, as threads written before version 2 hold them: a whole
 * frontier on every checkpoint and the thread's initial state (`base`) on the first. Read
 * only; the graph migrates them when it reads a thread.
 */
export interface CheckpointV1
  extends Omit<
    Checkpoint,
    "version" | "frontier" | "snapshotSeq" | "snapshotBytes" | "bytesSinceSnapshot" | "snapshot"
  > {
  readonly version: 1;
  /** The full state before the first write; only on a thread's first checkpoint. */
  readonly base?: Readonly<Record<string, unknown>>;
  /** The whole frontier after this step. */
  readonly frontier: CheckpointFrontier;
}

/** Anything a saver may hold: checkpoints of the current format or of an older one. */
export type StoredCheckpoint = Checkpoint | CheckpointV1;
