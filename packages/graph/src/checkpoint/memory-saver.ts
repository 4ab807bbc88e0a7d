import { CheckpointConflictError } from "../error/checkpoint-conflict-error.js";
import type { StoredCheckpoint } from "./checkpoint.js";
import type { Checkpointer, ListCheckpointsOptions } from "./checkpointer.js";

/** One thread: checkpoint JSON indexed by `seq`, and `seq` by checkpoint id. */
interface ThreadLog {
  readonly entries: string[];
  readonly seqById: Map<string, number>;
}

/**
 * A {@link Checkpointer} in process memory, for tests, demos and short-lived crews. It keeps
 * each checkpoint as its JSON text, so what it returns is always a fresh copy and what it
 * holds is exactly what a database saver would store. A thread's log is an array indexed by
 * `seq`, with an index from checkpoint id to `seq`, so every read is by position.
 */
export class MemorySaver implements Checkpointer {
  readonly #threads = new Map<string, ThreadLog>();

  /** The thread's newest checkpoint, or `undefined` for a thread never written. */
  async getLatest(threadId: string): Promise<StoredCheckpoint | undefined> {
    const entries = this.#threads.get(threadId)?.entries;
    const last = entries?.[entries.length - 1];
    return last === undefined ? undefined : (JSON.parse(last) as StoredCheckpoint);
  }

  /** The thread's checkpoint with this id, or `undefined`. */
  async get(threadId: string, checkpointId: string): Promise<StoredCheckpoint | undefined> {
    const log = this.#threads.get(threadId);
    const seq = log?.seqById.get(checkpointId);
    return seq === undefined ? undefined : (JSON.parse(log!.entries[seq]!) as StoredCheckpoint);
  }

  /**
   * Appends a checkpoint whose `seq` is the thread's newest plus one. It also takes
   * checkpoints of older format versions, so a thread exported from elsewhere can be loaded.
   */
  async put(checkpoint: StoredCheckpoint): Promise<void> {
    const log: ThreadLog = this.#threads.get(checkpoint.threadId) ?? {
      entries: [],
      seqById: new Map(),
    };
    if (checkpoint.seq !== log.entries.length) {
      throw new CheckpointConflictError({
        threadId: checkpoint.threadId,
        seq: checkpoint.seq,
        latestSeq: log.entries.length - 1,
      });
    }
    log.entries.push(JSON.stringify(checkpoint));
    log.seqById.set(checkpoint.id, checkpoint.seq);
    this.#threads.set(checkpoint.threadId, log);
  }

  /** The thread's checkpoints, newest first. */
  async *list(
    threadId: string,
    options: ListCheckpointsOptions = {},
  ): AsyncGenerator<StoredCheckpoint> {
    const entries = this.#threads.get(threadId)?.entries ?? [];
    let remaining = options.limit ?? Number.POSITIVE_INFINITY;
    const below = Math.min(entries.length, options.beforeSeq ?? entries.length);
    for (let seq = below - 1; seq >= 0 && remaining > 0; seq--, remaining--) {
      yield JSON.parse(entries[seq]!) as StoredCheckpoint;
    }
  }

  /** Forgets a thread. */
  async deleteThread(threadId: string): Promise<void> {
    this.#threads.delete(threadId);
  }

  /** Bytes of JSON held for one thread, or for all: what the saved history costs. */
  storedBytes(threadId?: string): number {
    const logs =
      threadId === undefined
        ? [...this.#threads.values()]
        : [this.#threads.get(threadId)].filter((log) => log !== undefined);
    let total = 0;
    for (const log of logs) {
      for (const json of log.entries) total += Buffer.byteLength(json);
    }
    return total;
  }

  /** Bytes of JSON of each of a thread's checkpoints, in `seq` order. */
  checkpointBytes(threadId: string): number[] {
    return (this.#threads.get(threadId)?.entries ?? []).map((json) => Buffer.byteLength(json));
  }
}
