/**
 * Waits for conditions on what a test observes (lines from child processes, notices from
 * Postgres), without polling: {@link Condition.waitFor} checks its test at once and again at
 * each {@link Condition.notifyAll}, which the test calls whenever what it observes changed.
 */
export class Condition {
  readonly #waiters = new Set<() => void>();

  /** Settles once `test` returns true: at once, or at the first `notifyAll` after which it does. */
  waitFor(test: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!test()) return;
        this.#waiters.delete(check);
        resolve();
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** Says that what the conditions read changed: checks every waiting one again. */
  notifyAll(): void {
    for (const check of [...this.#waiters]) check();
  }
}
