import { CheckpointConflictError } from "../error/checkpoint-conflict-error.js";
import type { StoredCheckpoint } from "./checkpoint.js";
import type { Checkpointer, ListCheckpointsOptions } from "./checkpointer.js";

interface StoredEntry {
  readonly id: string;
  readonly json: string;
}

/**
 * A {@link Checkpointer} in process memory, for tests, demos and short-lived crews. It keeps
 * each checkpoint as its JSON text, so what it returns is always a fresh copy and what it
 * holds is exactly what a database saver would store. A thread's log is an array indexed by
 * `seq`, so every read is by position.
 */
export class MemorySaver implements Checkpointer {
  readonly #threads = new Map<string, StoredEntry[]>();

  /** The thread's newest checkpoint, or `undefined` for a thread never written. */
  async getLatest(threadId: string): Promise<StoredCheckpoint | undefined> {
    const log = this.#threads.get(threadId);
    const last = log?.[log.length - 1];
    return last ? (JSON.parse(last.json) as StoredCheckpoint) : undefined;
  }

  /** The thread's checkpoint with this id, or `undefined`. */
  async get(threadId: string, checkpointId: string): Promise<StoredCheckpoint | undefined> {
    const entry = this.#threads.get(threadId)?.find((stored) => stored.id === checkpointId);
    return entry ? (JSON.parse(entry.json) as StoredCheckpoint) : undefined;
  }

  /**
   * Appends a checkpoint whose `seq` is the thread's newest plus one. It also takes
   * checkpoints of older format versions, so a thread exported from elsewhere can be loaded.
   */
  async put(checkpoint: StoredCheckpoint): Promise<void> {
    const log = this.#threads.get(checkpoint.threadId) ?? [];
    if (checkpoint.seq !== log.length) {
      throw new CheckpointConflictError({
        threadId: checkpoint.threadId,
        seq: checkpoint.seq,
        latestSeq: log.length - 1,
      });
    }
    log.push({ id: checkpoint.id, json: JSON.stringify(checkpoint) });
    this.#threads.set(checkpoint.threadId, log);
  }

  /** The thread's checkpoints, newest first. */
  async *list(
    threadId: string,
    options: ListCheckpointsOptions = {},
  ): AsyncGenerator<StoredCheckpoint> {
    const log = this.#threads.get(threadId) ?? [];
    let remaining = options.limit ?? Number.POSITIVE_INFINITY;
    const below = Math.min(log.length, options.beforeSeq ?? log.length);
    for (let seq = below - 1; seq >= 0 && remaining > 0; seq--, remaining--) {
      yield JSON.parse(log[seq]!.json) as StoredCheckpoint;
    }
  }

  /** Forgets a thread. */
  async deleteThread(threadId: string): Promise<void> {
    this.#threads.delete(threadId);
  }

  /** Bytes of JSON held for one thread, or for all: what the saved history costs. */
  storedBytes(threadId?: string): number {
    const logs =
      threadId === undefined ? [...this.#threads.values()] : [this.#threads.get(threadId) ?? []];
    let total = 0;
    for (const log of logs) {
      for (const entry of log) total += Buffer.byteLength(entry.json);
    }
    return total;
  }

  /** Bytes of JSON of each of a thread's checkpoints, in `seq` order. */
  checkpointBytes(threadId: string): number[] {
    return (this.#threads.get(threadId) ?? []).map((entry) => Buffer.byteLength(entry.json));
  }
}
