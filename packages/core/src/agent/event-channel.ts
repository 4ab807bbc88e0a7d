/**
 * A one-reader queue from a producer that pushes to a consumer that iterates: events are
 * buffered until read, so a slow consumer never loses one and never stalls the producer.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  readonly #buffer: T[] = [];
  #closed = false;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  /** Queues a value; ignored after {@link close}. */
  push(value: T): void {
    if (this.#closed) return;
    this.#buffer.push(value);
    this.#notify();
  }

  /** Ends the stream once buffered values are read; with an error, the reader then throws it. */
  close(error?: { error: unknown }): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#failure = error;
    this.#notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    while (true) {
      if (this.#buffer.length > 0) {
        yield this.#buffer.shift()!;
      } else if (this.#closed) {
        if (this.#failure) throw this.#failure.error;
        return;
      } else {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
