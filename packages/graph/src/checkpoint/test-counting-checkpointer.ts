import type { Checkpoint, StoredCheckpoint } from "./checkpoint.js";
import type { Checkpointer, ListCheckpointsOptions } from "./checkpointer.js";

/**
 * Test double: wraps a saver and counts the checkpoints read through it and their JSON
 * bytes, so a test can prove a read is bounded by a snapshot's size rather than by the
 * thread's length.
 */
export class CountingCheckpointer implements Checkpointer {
  readonly #inner: Checkpointer;
  /** Checkpoints handed out by `getLatest`, `get` and `list` since the last {@link reset}. */
  reads = 0;
  /** JSON bytes of those checkpoints. */
  bytesRead = 0;

  constructor(inner: Checkpointer) {
    this.#inner = inner;
  }

  /** Starts counting again from zero. */
  reset(): void {
    this.reads = 0;
    this.bytesRead = 0;
  }

  async getLatest(threadId: string): Promise<StoredCheckpoint | undefined> {
    return this.#count(await this.#inner.getLatest(threadId));
  }

  async get(threadId: string, checkpointId: string): Promise<StoredCheckpoint | undefined> {
    return this.#count(await this.#inner.get(threadId, checkpointId));
  }

  put(checkpoint: Checkpoint): Promise<void> {
    return this.#inner.put(checkpoint);
  }

  async *list(
    threadId: string,
    options?: ListCheckpointsOptions,
  ): AsyncGenerator<StoredCheckpoint> {
    for await (const checkpoint of this.#inner.list(threadId, options)) {
      this.#count(checkpoint);
      yield checkpoint;
    }
  }

  deleteThread(threadId: string): Promise<void> {
    return this.#inner.deleteThread(threadId);
  }

  #count(checkpoint: StoredCheckpoint | undefined): StoredCheckpoint | undefined {
    if (checkpoint) {
      this.reads += 1;
      this.bytesRead += Buffer.byteLength(JSON.stringify(checkpoint));
    }
    return checkpoint;
  }
}
