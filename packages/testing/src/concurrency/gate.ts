/**
 * A gate a test opens: code waiting to {@link Gate.pass} it goes on once it is open, or gives
 * up when its signal aborts first (a graph node whose run was stopped while it waited).
 */
export class Gate {
  #open!: () => void;
  /** Settles when the gate opens. */
  readonly opened = new Promise<void>((resolve) => {
    this.#open = resolve;
  });

  /** Opens the gate, for good: whoever waits passes, and whoever comes later passes at once. */
  open(): void {
    this.#open();
  }

  /** Settles when the gate opens, or rejects with `signal`'s reason when it aborts first. */
  pass(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      this.opened.then(resolve);
    });
  }
}
