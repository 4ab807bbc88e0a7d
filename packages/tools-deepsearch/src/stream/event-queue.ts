/**
 * A queue between producers that push and one consumer that iterates: values are buffered
 * until read, so a slow reader loses nothing and never stalls the producers.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  readonly #buffer: T[] = [];
  #closed = false;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  /** Queues a value; ignored once closed. */
  push(value: T): void {
    if (this.#closed) return;
    this.#buffer.push(value);
    this.#notify();
  }

  /** Ends iteration once the buffered values are read; with a failure, the reader then throws it. */
  close(failure?: { error: unknown }): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#failure = failure;
    this.#notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    while (true) {
      if (this.#buffer.length > 0) {
        yield this.#buffer.shift() as T;
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
