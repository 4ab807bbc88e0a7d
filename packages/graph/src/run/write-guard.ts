import { StateConflictError } from "../error/state-conflict-error.js";

/**
 * Detects concurrent writes to last-value keys. Time is a counter bumped at every node start
 * and end; a node conflicts when a key it writes was last written by a node that ended after
 * it started, i.e. while it was running.
 */
export class WriteGuard {
  readonly #lastWrite = new Map<string, { node: string; at: number }>();
  #clock = 0;

  /** Advances the clock; call at every node start and end. */
  tick(): number {
    this.#clock += 1;
    return this.#clock;
  }

  /**
   * Refuses `keys` written by `node`, which started at `startedAt`, if any overlapping node
   * wrote one of them.
   *
   * @throws StateConflictError naming the key and both nodes.
   */
  check(node: string, startedAt: number, keys: readonly string[]): void {
    for (const key of keys) {
      const last = this.#lastWrite.get(key);
      if (last && last.at > startedAt) {
        throw new StateConflictError({ key, nodes: [last.node, node] });
      }
    }
  }

  /** Records that `node` wrote `keys`, ending at time `at`. */
  record(node: string, at: number, keys: readonly string[]): void {
    for (const key of keys) this.#lastWrite.set(key, { node, at });
  }
}
