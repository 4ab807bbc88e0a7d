import { CheckpointConflictError } from "../error/checkpoint-conflict-error.js";
import type { Checkpoint } from "./checkpoint.js";
import type { Checkpointer, ListCheckpointsOptions } from "./checkpointer.js";

/**
 * A {@link Checkpointer} in process memory, for tests, demos and short-lived crews. It keeps
 * each checkpoint as its JSON text, so what it returns is always a fresh copy and what it
 * holds is exactly what a database saver would store.
 */
export class MemorySaver implements Checkpointer {
  readonly #threads = new Map<string, { seq: number; json: string }[]>();

  /** The thread's newest checkpoint, or `undefined` for a thread never written. */
  async getLatest(threadId: string): Promise<Checkpoint | undefined> {
    const log = this.#threads.get(threadId);
    const last = log?.[log.length - 1];
    return last ? (JSON.parse(last.json) as Checkpoint) : undefined;
  }

  /** Appends a checkpoint; refuses a `seq` not above the thread's newest. */
  async put(checkpoint: Checkpoint): Promise<void> {
    const log = this.#threads.get(checkpoint.threadId) ?? [];
    const latestSeq = log[log.length - 1]?.seq;
    if (latestSeq !== undefined && checkpoint.seq <= latestSeq) {
      throw new CheckpointConflictError({
        threadId: checkpoint.threadId,
        seq: checkpoint.seq,
        latestSeq,
      });
    }
    log.push({ seq: checkpoint.seq, json: JSON.stringify(checkpoint) });
    this.#threads.set(checkpoint.threadId, log);
  }

  /** The thread's checkpoints, newest first. */
  async *list(threadId: string, options: ListCheckpointsOptions = {}): AsyncGenerator<Checkpoint> {
    const log = this.#threads.get(threadId) ?? [];
    let remaining = options.limit ?? Number.POSITIVE_INFINITY;
    for (let index = log.length - 1; index >= 0 && remaining > 0; index--) {
      const entry = log[index]!;
      if (options.beforeSeq !== undefined && entry.seq >= options.beforeSeq) continue;
      remaining--;
      yield JSON.parse(entry.json) as Checkpoint;
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
}
