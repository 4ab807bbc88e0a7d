import { randomUUID } from "node:crypto";
import { CorruptThreadError } from "../error/corrupt-thread-error.js";
import type { StateDraft, StateEngine, StateRecord } from "../state/state-engine.js";
import type {
  Checkpoint,
  CheckpointError,
  CheckpointFrontier,
  CheckpointInterrupt,
  CheckpointSnapshot,
  CheckpointSource,
  FrontierDelta,
  PendingInterrupt,
  RunStatus,
  StoredCheckpoint,
} from "./checkpoint.js";
import type { Checkpointer } from "./checkpointer.js";
import { interruptsOf } from "./interrupt-id.js";
import { jsonBytes } from "./json-bytes.js";
import { type SnapshotMark, type SnapshotPolicy, snapshotDue } from "./snapshot-policy.js";
import { setVisits, visitsOf } from "./visit-counts.js";

// The checkpoint format: how a run writes its checkpoints (version 2), where a run's
// checkpoints go on a thread's log, and how a thread's checkpoints of either version are read
// back into states. The record's fields are declared in checkpoint.ts.

/** The checkpoint format version this release writes. */
export const CHECKPOINT_VERSION = 2;

/** Where a run's checkpoints go on the thread's log. */
export interface LogPosition {
  /** The `seq` the run's first checkpoint takes: the thread's newest plus one. */
  readonly nextSeq: number;
  /** The checkpoint the run continues from, `null` on an empty thread. */
  readonly parentId: string | null;
  /** The newest snapshot the run's first checkpoint builds on; none makes it a snapshot. */
  readonly snapshot: SnapshotMark | undefined;
}

/**
 * Where a run that continues the thread from `base` writes, `latest` being the thread's newest
 * checkpoint: after `latest` whatever `base` is, so time travel (an older `base`) appends to
 * the thread, its first checkpoint naming `base` as parent.
 */
export function positionAfter(
  latest: StoredCheckpoint | undefined,
  base: StoredCheckpoint | undefined,
): LogPosition {
  return {
    nextSeq: latest ? latest.seq + 1 : 0,
    parentId: base?.id ?? null,
    // A run continues the newest checkpoint's snapshot chain only when it builds on that very
    // checkpoint in the current format; after time travel or on a version-1 thread, its first
    // checkpoint is a snapshot.
    snapshot: latest && base?.id === latest.id ? snapshotMarkOf(latest) : undefined,
  };
}

/**
 * The newest snapshot as `checkpoint` names it. A version-1 checkpoint names none, nor does
 * one missing the weights.
 */
function snapshotMarkOf(checkpoint: StoredCheckpoint): SnapshotMark | undefined {
  if (checkpoint.version !== 2) return undefined;
  const { snapshotSeq, snapshotBytes, bytesSinceSnapshot } = checkpoint;
  if (typeof snapshotBytes !== "number" || typeof bytesSinceSnapshot !== "number") return undefined;
  return { seq: snapshotSeq, bytes: snapshotBytes, bytesSince: bytesSinceSnapshot };
}

/** The newest snapshot at or before `checkpoint`: where reading it must begin. */
export function snapshotSeqOf(checkpoint: StoredCheckpoint): number {
  return checkpoint.version === 2 ? checkpoint.snapshotSeq : 0;
}

/**
 * The answers a run continuing from `checkpoint` hands out, by node: those the unfinished
 * nodes already had, then `answers` (by interrupt id) for the questions they answer. A node
 * whose question is not answered runs again and asks it again.
 */
export function answersAfterResume(
  checkpoint: StoredCheckpoint,
  answers: ReadonlyMap<string, unknown> = new Map(),
): Readonly<Record<string, readonly unknown[]>> {
  const byNode: Record<string, readonly unknown[]> = { ...checkpoint.answers };
  if (checkpoint.status !== "interrupted") return byNode;
  for (const { id, node } of interruptsOf(checkpoint)) {
    if (answers.has(id)) byNode[node] = [...(byNode[node] ?? []), answers.get(id)];
  }
  return byNode;
}

/** The questions `checkpoint` waits on, with their ids; none unless its run is interrupted. */
export function pendingInterrupts(checkpoint: StoredCheckpoint): PendingInterrupt[] {
  return checkpoint.status === "interrupted" ? interruptsOf(checkpoint) : [];
}

/** What an update of a thread writes as a node: the node, and the nodes its edges lead to. */
export interface UpdateAsNode {
  readonly node: string;
  /** The nodes the node's edges lead to on the updated state (END left out). */
  readonly targets: readonly string[];
}

/** The checkpoint an update writes: the step, how the frontier moves, and where it ends. */
export interface UpdateCheckpoint {
  readonly step: CheckpointStep;
  readonly delta: FrontierDelta;
  readonly frontier: CheckpointFrontier;
}

/**
 * The checkpoint of an update of the thread at `point` (none: a thread never run) writing
 * `writes`. Without `asNode`, only the state changes: the frontier, the status and what the
 * run waits on stay as they were. With it, the update is that node ending: it leaves the
 * frontier (a visit counted, as if it had run) with its questions and answers, its targets
 * are triggered, and the status follows: `interrupted` while questions remain, else `done`
 * when nothing is left to run, else `running` (`invoke(null)` runs what is left).
 */
export function updateCheckpoint(
  point: ThreadPoint | undefined,
  writes: StateRecord,
  asNode?: UpdateAsNode,
): UpdateCheckpoint {
  const base = point?.checkpoint;
  const before: CheckpointFrontier = point
    ? frontierOf(point)
    : { pending: [], running: [], visits: {} };
  let interrupts = base ? pendingInterrupts(base) : [];
  const answers: Record<string, readonly unknown[]> = { ...base?.answers };
  if (!asNode) {
    const step: CheckpointStep = {
      source: "update",
      writes,
      status: base?.status ?? "done",
      ...(base?.error ? { error: base.error } : {}),
      ...(interrupts.length > 0 ? { interrupts } : {}),
      ...(Object.keys(answers).length > 0 ? { answers } : {}),
    };
    return { step, delta: {}, frontier: before };
  }
  const { node, targets } = asNode;
  const visit = visitsOf(before.visits, node) + 1;
  const delta: FrontierDelta = before.running.includes(node)
    ? { finished: [node] }
    : { started: [node], finished: [node], ...(visit > 1 ? { visits: { [node]: visit } } : {}) };
  const moved: FrontierDelta = targets.length > 0 ? { ...delta, triggered: targets } : delta;
  const fold = fromSaved(before);
  applyDelta(fold, moved);
  const frontier = materialized(fold);
  interrupts = interrupts.filter((interrupt) => interrupt.node !== node);
  delete answers[node];
  const idle = frontier.pending.length === 0 && frontier.running.length === 0;
  const step: CheckpointStep = {
    source: "update",
    node,
    writes,
    status: interrupts.length > 0 ? "interrupted" : idle ? "done" : "running",
    ...(interrupts.length > 0 ? { interrupts } : {}),
    ...(Object.keys(answers).length > 0 ? { answers } : {}),
  };
  return { step, delta: moved, frontier };
}

/** What one step of a run records, besides where the run stands. */
export interface CheckpointStep {
  readonly source: CheckpointSource;
  /** The node that ended (source `node`), that failed (`stop`), or that an update wrote as. */
  readonly node?: string;
  /** The keys written at this step, as {@link StateEngine.stage} records them. */
  readonly writes: StateRecord;
  readonly status: RunStatus;
  readonly error?: CheckpointError;
  readonly interrupts?: readonly CheckpointInterrupt[];
  readonly answers?: Readonly<Record<string, readonly unknown[]>>;
}

/** Options of {@link CheckpointWriter}. */
export interface CheckpointWriterOptions {
  readonly checkpointer: Checkpointer;
  readonly threadId: string;
  readonly runId: string;
  /** Every checkpoint's `metadata`. */
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly policy: SnapshotPolicy;
  readonly position: LogPosition;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** JSON bytes of two non-empty objects' members in one object: one pair of braces less, one comma more. */
const mergedBytes = (first: number, second: number): number => first + second - 1;

/**
 * Builds a run's checkpoints and appends them to the thread's log, one per step, in order:
 * each records the step and how the frontier moved, and also holds a snapshot when the
 * thread's first checkpoint, the snapshot policy, or a failed put calls for one.
 */
export class CheckpointWriter {
  readonly #options: CheckpointWriterOptions;
  #nextSeq: number;
  #parentId: string | null;
  /** The newest snapshot on the log; `undefined` forces the next checkpoint to be one. */
  #snapshot: SnapshotMark | undefined;

  constructor(options: CheckpointWriterOptions) {
    this.#options = options;
    this.#nextSeq = options.position.nextSeq;
    this.#parentId = options.position.parentId;
    this.#snapshot = options.position.snapshot;
  }

  /**
   * Appends the checkpoint of one step and returns it: `delta` is how the frontier moved since
   * the previous checkpoint, and `snapshot` gives the full state and frontier, asked for only
   * when this checkpoint must hold them.
   *
   * @throws whatever the checkpointer's `put` throws (`CheckpointConflictError` when another
   *   run wrote the thread first); the next checkpoint is then a snapshot.
   */
  async write(
    step: CheckpointStep,
    delta: FrontierDelta,
    snapshot: () => CheckpointSnapshot,
  ): Promise<Checkpoint> {
    const { checkpointer, threadId, runId, metadata, policy } = this.#options;
    const seq = this.#nextSeq;
    let mark = this.#snapshot;
    // Weighed with the previous weights in place, whose digits differ from the new ones' by a
    // character or two at most; built once and completed in place, as copying a record of
    // this many fields cost more than weighing it.
    const checkpoint: Writable<Checkpoint> = {
      version: CHECKPOINT_VERSION,
      threadId,
      id: randomUUID(),
      parentId: this.#parentId,
      seq,
      runId,
      createdAt: new Date().toISOString(),
      ...step,
      frontier: delta,
      snapshotSeq: mark?.seq ?? seq,
      snapshotBytes: mark?.bytes ?? 0,
      bytesSinceSnapshot: mark?.bytesSince ?? 0,
      metadata,
    };
    const bytes = jsonBytes(checkpoint);
    if (snapshotDue(mark, seq, bytes, policy)) {
      const full = snapshot();
      mark = { seq, bytes: mergedBytes(bytes, jsonBytes({ snapshot: full })), bytesSince: 0 };
      checkpoint.snapshot = full;
    } else {
      mark = { ...mark!, bytesSince: mark!.bytesSince + bytes };
    }
    checkpoint.snapshotSeq = mark.seq;
    checkpoint.snapshotBytes = mark.bytes;
    checkpoint.bytesSinceSnapshot = mark.bytesSince;
    // Until this put succeeds the delta just taken is nowhere, so the next checkpoint
    // must be a snapshot to say where the run stands.
    this.#snapshot = undefined;
    await checkpointer.put(checkpoint);
    this.#snapshot = mark;
    this.#parentId = checkpoint.id;
    this.#nextSeq += 1;
    return checkpoint;
  }
}

/** A checkpoint with the full state and scheduler position it stands for. */
export interface ThreadPoint {
  readonly checkpoint: StoredCheckpoint;
  readonly values: StateRecord;
  /** Nodes waiting to start, in trigger order. */
  readonly pending: readonly string[];
  /** Nodes that were running. */
  readonly running: readonly string[];
  /**
   * The visit counts, built on demand: in a long chain they name every node, and only a
   * resumed run needs them.
   */
  visits(): Readonly<Record<string, number>>;
}

/** The scheduler's whole position at a point, as a snapshot stores it and a resumed run takes it. */
export function frontierOf(point: ThreadPoint): CheckpointFrontier {
  return { pending: point.pending, running: point.running, visits: point.visits() };
}

/**
 * The frontier while folding checkpoints forward. Visit counts stay as the snapshot's record
 * plus the counts changed since, so a fold never copies a record naming every node.
 */
interface FoldFrontier {
  pending: Set<string>;
  running: Set<string>;
  baseVisits: Readonly<Record<string, number>>;
  /** A Map, not a record: a fold sets a count per checkpoint and defining a key costs more. */
  changedVisits: Map<string, number>;
}

const emptyFrontier = (): FoldFrontier => ({
  pending: new Set(),
  running: new Set(),
  baseVisits: {},
  changedVisits: new Map(),
});

const fromSaved = (saved: CheckpointFrontier): FoldFrontier => ({
  pending: new Set(saved.pending),
  running: new Set(saved.running),
  baseVisits: saved.visits,
  changedVisits: new Map(),
});

function applyDelta(frontier: FoldFrontier, delta: FrontierDelta): void {
  for (const name of delta.started ?? []) {
    frontier.pending.delete(name);
    frontier.running.add(name);
  }
  if (delta.visits) {
    for (const [name, count] of Object.entries(delta.visits))
      frontier.changedVisits.set(name, count);
  }
  for (const name of delta.finished ?? []) {
    frontier.running.delete(name);
    // A first visit is counted when it ends (a running one is implied).
    if (!frontier.changedVisits.has(name) && !Object.hasOwn(frontier.baseVisits, name)) {
      frontier.changedVisits.set(name, 1);
    }
  }
  for (const name of delta.triggered ?? []) frontier.pending.add(name);
}

/** A fold's frontier as a snapshot stores it. */
function materialized(frontier: FoldFrontier): CheckpointFrontier {
  const visits = { ...frontier.baseVisits };
  for (const [name, count] of frontier.changedVisits) setVisits(visits, name, count);
  return { pending: [...frontier.pending], running: [...frontier.running], visits };
}

/**
 * A thread's state and frontier as its checkpoints are applied in `seq` order, from a snapshot
 * (or, on a version-1 thread, from its first checkpoint) or from a point read before. A
 * version-1 checkpoint holds a whole frontier and its writes, its thread's first one also the
 * initial state (`base`); a version-2 checkpoint holds a snapshot or writes and a frontier
 * delta, an `input` one's applying to an empty frontier.
 */
export class CheckpointFold {
  readonly #engine: StateEngine;
  readonly #threadId: string;
  #draft: StateDraft | undefined;
  #frontier: FoldFrontier;
  #checkpoint: StoredCheckpoint | undefined;

  constructor(engine: StateEngine, threadId: string, from?: ThreadPoint) {
    this.#engine = engine;
    this.#threadId = threadId;
    this.#draft = from && engine.draft(from.values);
    this.#frontier = from ? fromSaved(frontierOf(from)) : emptyFrontier();
  }

  /**
   * Applies the thread's next checkpoint.
   *
   * @throws CorruptThreadError when it builds on a snapshot the fold has not met, or its
   *   format version is unknown.
   */
  apply(checkpoint: StoredCheckpoint): void {
    const engine = this.#engine;
    if (checkpoint.version === 1) {
      if (checkpoint.base) this.#draft = engine.draft(Object.freeze({ ...checkpoint.base }));
      this.#draft ??= engine.draft(engine.initialValues());
      engine.replay(this.#draft, checkpoint.writes);
      this.#frontier = fromSaved(checkpoint.frontier);
    } else if (checkpoint.version === 2 && checkpoint.snapshot) {
      this.#draft = engine.draft(Object.freeze({ ...checkpoint.snapshot.values }));
      this.#frontier = fromSaved(checkpoint.snapshot.frontier);
    } else if (checkpoint.version === 2 && this.#draft !== undefined) {
      engine.replay(this.#draft, checkpoint.writes);
      if (checkpoint.source === "input") this.#frontier = emptyFrontier();
      applyDelta(this.#frontier, checkpoint.frontier);
    } else {
      const version = (checkpoint as { version: unknown }).version;
      throw new CorruptThreadError({
        threadId: this.#threadId,
        seq: checkpoint.seq,
        reason:
          version === 2
            ? `snapshot ${checkpoint.snapshotSeq} it builds on holds no snapshot`
            : `unknown checkpoint format version ${String(version)}`,
      });
    }
    this.#checkpoint = checkpoint;
  }

  /** The point of the checkpoint applied last; its state is built now, once. */
  point(): ThreadPoint {
    const { baseVisits } = this.#frontier;
    const changedVisits = [...this.#frontier.changedVisits];
    return {
      checkpoint: this.#checkpoint!,
      values: this.#engine.read(this.#draft!),
      pending: [...this.#frontier.pending],
      running: [...this.#frontier.running],
      visits: () => {
        const visits = { ...baseVisits };
        for (const [name, count] of changedVisits) setVisits(visits, name, count);
        return visits;
      },
    };
  }
}
