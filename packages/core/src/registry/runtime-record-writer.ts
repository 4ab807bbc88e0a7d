import type { ToolRecord } from "../tool/tool-record.js";
import type { RegistryFile } from "./registry-file.js";

/**
 * Writes runtime tools' records to the registry file in the background, batched: every record
 * queued in the same tick (and every one queued while a write is under way) goes into one
 * locked read-merge-write, so a loop of registrations costs one write, and two writers (in this
 * process or another) lose nothing.
 */
export class RuntimeRecordWriter {
  readonly #file: RegistryFile;
  /** Records queued since the last write began, by tool name: the next batch. */
  readonly #unwritten = new Map<string, ToolRecord>();
  /** The loop writing batches, while there are any. */
  #writing: Promise<void> | undefined;
  #failure: unknown;

  constructor(file: RegistryFile) {
    this.#file = file;
  }

  /** Queues a record; the write starts a microtask later, with whatever else was queued. */
  queue(record: ToolRecord): void {
    this.#unwritten.set(record.tool_name, record);
    this.#writing ??= this.#writeUnwritten();
  }

  /**
   * Waits until every queued record is written; rethrows the first write that failed since the
   * last call.
   */
  async settled(): Promise<void> {
    await this.#writing;
    if (this.#failure !== undefined) {
      const failure = this.#failure;
      this.#failure = undefined;
      throw failure;
    }
  }

  /** Writes batches until nothing queued is left. */
  async #writeUnwritten(): Promise<void> {
    await Promise.resolve();
    try {
      while (this.#unwritten.size > 0) {
        const batch = [...this.#unwritten.values()];
        this.#unwritten.clear();
        await this.#file.merge(batch).catch((error: unknown) => {
          this.#failure ??= error;
        });
      }
    } finally {
      this.#writing = undefined;
    }
  }
}
