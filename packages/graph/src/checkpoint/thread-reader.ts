import { CorruptThreadError } from "../error/corrupt-thread-error.js";
import type { StateDefinition, StateRecord } from "../state/state-definition.js";
import type { CheckpointFrontier, FrontierDelta, StoredCheckpoint } from "./checkpoint.js";
import type { Checkpointer } from "./checkpointer.js";
import { setVisits } from "./visit-counts.js";

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

function pointOf(
  checkpoint: StoredCheckpoint,
  values: StateRecord,
  frontier: FoldFrontier,
): ThreadPoint {
  const { baseVisits } = frontier;
  const changedVisits = [...frontier.changedVisits];
  return {
    checkpoint,
    values,
    pending: [...frontier.pending],
    running: [...frontier.running],
    visits: () => {
      const visits = { ...baseVisits };
      for (const [name, count] of changedVisits) setVisits(visits, name, count);
      return visits;
    },
  };
}

/** Where a point read earlier stood, to fold on from it. */
const knownFrontier = (point: ThreadPoint): CheckpointFrontier => ({
  pending: point.pending,
  running: point.running,
  visits: point.visits(),
});

/** Where a fold begins when it does not begin at a snapshot: a point read before. */
interface FoldStart {
  readonly values: StateRecord;
  readonly frontier: FoldFrontier;
}

const startAt = (point: ThreadPoint): FoldStart => ({
  values: point.values,
  frontier: fromSaved(knownFrontier(point)),
});

const lastOnly = (index: number, length: number): boolean => index === length - 1;

/** The newest snapshot at or before `checkpoint`: where reading it must begin. */
function snapshotSeqOf(checkpoint: StoredCheckpoint): number {
  return checkpoint.version === 2 ? checkpoint.snapshotSeq : 0;
}

/**
 * Reads a thread's states from its checkpoints. A state is rebuilt from the newest snapshot
 * at or before the wanted checkpoint, applying the writes and frontier moves that follow, so
 * one read parses less than `1 + snapshotRatio` snapshots' worth of bytes however long the
 * thread is. Checkpoints
 * of format version 1 (no snapshots, whole frontiers) are migrated as they are read, from the
 * thread's first checkpoint; the first checkpoint written after them is a snapshot.
 */
export class ThreadReader {
  readonly #checkpointer: Checkpointer;
  readonly #threadId: string;
  readonly #definition: StateDefinition;

  constructor(checkpointer: Checkpointer, threadId: string, definition: StateDefinition) {
    this.#checkpointer = checkpointer;
    this.#threadId = threadId;
    this.#definition = definition;
  }

  /** The state at the thread's newest checkpoint, or `undefined` for an empty thread. */
  async latest(): Promise<ThreadPoint | undefined> {
    const checkpoint = await this.#checkpointer.getLatest(this.#threadId);
    return checkpoint ? this.at(checkpoint) : undefined;
  }

  /**
   * The state at one checkpoint of the thread. With `known`, a point read earlier from the
   * same interval, only the checkpoints after it are read, once the log shows that checkpoint
   * still stands at its seq (a thread deleted and written again does not).
   */
  async at(checkpoint: StoredCheckpoint, known?: ThreadPoint): Promise<ThreadPoint> {
    const from = known?.checkpoint;
    if (from && from.seq >= snapshotSeqOf(checkpoint) && from.seq < checkpoint.seq) {
      const chain = await this.#chain(checkpoint, from.seq);
      if (chain[0]!.id === from.id) {
        return this.#fold(chain.slice(1), lastOnly, startAt(known!))[0]!;
      }
    }
    const chain = await this.#chain(checkpoint, snapshotSeqOf(checkpoint));
    return this.#fold(chain, lastOnly)[0]!;
  }

  /**
   * Every state from `from` (default the newest) back to the thread's first, newest first,
   * reading one snapshot interval's checkpoints at a time and holding about the square root
   * of that many states.
   */
  async *history(from?: StoredCheckpoint): AsyncGenerator<ThreadPoint> {
    let cursor = from ?? (await this.#checkpointer.getLatest(this.#threadId));
    while (cursor) {
      const chain = await this.#chain(cursor, snapshotSeqOf(cursor));
      yield* this.#newestFirst(chain);
      cursor = chain[0]!.seq === 0 ? undefined : await this.#checkpointBefore(chain[0]!.seq);
    }
  }

  /**
   * The points of `chain`, newest first. Snapshots are placed by size, so an interval can
   * hold thousands of checkpoints, and each state holds its own copy of the lists appended
   * to: the chain is folded once keeping a state every √n checkpoints, then each block of
   * √n is folded again from the state before it, newest block first.
   */
  *#newestFirst(chain: readonly StoredCheckpoint[]): Generator<ThreadPoint> {
    const block = Math.ceil(Math.sqrt(chain.length));
    const anchors = this.#fold(chain, (index) => index % block === block - 1);
    for (let begin = (Math.ceil(chain.length / block) - 1) * block; begin >= 0; begin -= block) {
      const anchor = begin === 0 ? undefined : anchors[begin / block - 1];
      const points = this.#fold(
        chain.slice(begin, begin + block),
        () => true,
        anchor && startAt(anchor),
      );
      for (let index = points.length - 1; index >= 0; index--) yield points[index]!;
    }
  }

  async #checkpointBefore(seq: number): Promise<StoredCheckpoint> {
    for await (const checkpoint of this.#checkpointer.list(this.#threadId, {
      beforeSeq: seq,
      limit: 1,
    })) {
      if (checkpoint.seq === seq - 1) return checkpoint;
      break;
    }
    throw this.#corrupt(seq - 1, "the checkpoint is missing from the log");
  }

  /** The checkpoints from seq `start` up to `checkpoint`, oldest first, with none missing. */
  async #chain(checkpoint: StoredCheckpoint, start: number): Promise<StoredCheckpoint[]> {
    const chain: StoredCheckpoint[] = [checkpoint];
    if (checkpoint.seq > start) {
      for await (const older of this.#checkpointer.list(this.#threadId, {
        beforeSeq: checkpoint.seq,
        limit: checkpoint.seq - start,
      })) {
        chain.push(older);
      }
    }
    chain.reverse();
    chain.forEach((link, index) => {
      if (link.seq !== start + index) {
        throw this.#corrupt(start + index, "the checkpoint is missing from the log");
      }
    });
    return chain;
  }

  /**
   * The points of `chain` at the indexes `wanted` picks, oldest first. The state of the
   * others is never built, so a list appended to along the chain is copied once per point
   * wanted, not once per checkpoint.
   */
  #fold(
    chain: readonly StoredCheckpoint[],
    wanted: (index: number, length: number) => boolean,
    start?: FoldStart,
  ): ThreadPoint[] {
    const definition = this.#definition;
    const points: ThreadPoint[] = [];
    let draft = start && definition.draft(start.values);
    let frontier = start?.frontier ?? emptyFrontier();
    for (const [index, checkpoint] of chain.entries()) {
      if (checkpoint.version === 1) {
        if (checkpoint.base) draft = definition.draft(Object.freeze({ ...checkpoint.base }));
        draft ??= definition.draft(definition.initialValues());
        definition.replayInto(draft, checkpoint.writes);
        frontier = fromSaved(checkpoint.frontier);
      } else if (checkpoint.version === 2 && checkpoint.snapshot) {
        draft = definition.draft(Object.freeze({ ...checkpoint.snapshot.values }));
        frontier = fromSaved(checkpoint.snapshot.frontier);
      } else if (checkpoint.version === 2 && draft !== undefined) {
        definition.replayInto(draft, checkpoint.writes);
        if (checkpoint.source === "input") frontier = emptyFrontier();
        applyDelta(frontier, checkpoint.frontier);
      } else {
        const version = (checkpoint as { version: unknown }).version;
        throw this.#corrupt(
          checkpoint.seq,
          version === 2
            ? `snapshot ${checkpoint.snapshotSeq} it builds on holds no snapshot`
            : `unknown checkpoint format version ${String(version)}`,
        );
      }
      if (wanted(index, chain.length)) {
        points.push(pointOf(checkpoint, definition.read(draft), frontier));
      }
    }
    return points;
  }

  #corrupt(seq: number, reason: string): CorruptThreadError {
    return new CorruptThreadError({ threadId: this.#threadId, seq, reason });
  }
}
