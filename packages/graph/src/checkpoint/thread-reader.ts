import { CorruptThreadError } from "../error/corrupt-thread-error.js";
import type { StateEngine } from "../state/state-engine.js";
import type { StoredCheckpoint } from "./checkpoint.js";
import { CheckpointFold, snapshotSeqOf, type ThreadPoint } from "./checkpoint-format.js";
import type { Checkpointer } from "./checkpointer.js";

const lastOnly = (index: number, length: number): boolean => index === length - 1;

/**
 * Reads a thread's states from its checkpoints. A state is rebuilt from the newest snapshot
 * at or before the wanted checkpoint, applying the writes and frontier moves that follow, so
 * one read parses less than `1 + snapshotRatio` snapshots' worth of bytes however long the
 * thread is. Checkpoints of format version 1 (no snapshots, whole frontiers) are migrated as
 * they are read, from the thread's first checkpoint.
 */
export class ThreadReader {
  readonly #checkpointer: Checkpointer;
  readonly #threadId: string;
  readonly #engine: StateEngine;

  constructor(checkpointer: Checkpointer, threadId: string, engine: StateEngine) {
    this.#checkpointer = checkpointer;
    this.#threadId = threadId;
    this.#engine = engine;
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
        return this.#fold(chain.slice(1), lastOnly, known)[0]!;
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
      const points = this.#fold(chain.slice(begin, begin + block), () => true, anchor);
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
   * The points of `chain` at the indexes `wanted` picks, oldest first, folding on from `from`
   * when given. The state of the others is never built, so a list appended to along the chain
   * is copied once per point wanted, not once per checkpoint.
   */
  #fold(
    chain: readonly StoredCheckpoint[],
    wanted: (index: number, length: number) => boolean,
    from?: ThreadPoint,
  ): ThreadPoint[] {
    const fold = new CheckpointFold(this.#engine, this.#threadId, from);
    const points: ThreadPoint[] = [];
    for (const [index, checkpoint] of chain.entries()) {
      fold.apply(checkpoint);
      if (wanted(index, chain.length)) points.push(fold.point());
    }
    return points;
  }

  #corrupt(seq: number, reason: string): CorruptThreadError {
    return new CorruptThreadError({ threadId: this.#threadId, seq, reason });
  }
}
