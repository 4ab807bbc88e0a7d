/**
 * Counts per position `0..size-1` with prefix sums and "first non-zero position" in
 * O(log size): a Fenwick tree. The scheduler counts active nodes per graph component with
 * it, components being numbered in topological order.
 */
export class RangeCounter {
  readonly #tree: Int32Array;
  readonly #size: number;
  #highBit = 1;

  constructor(size: number) {
    this.#size = size;
    this.#tree = new Int32Array(size + 1);
    while (this.#highBit * 2 <= size) this.#highBit *= 2;
  }

  /** Adds `delta` at `position`. */
  add(position: number, delta: number): void {
    for (let i = position + 1; i <= this.#size; i += i & -i) this.#tree[i]! += delta;
  }

  /** The sum of positions `0..end-1`. */
  sumBefore(end: number): number {
    let sum = 0;
    for (let i = end; i > 0; i -= i & -i) sum += this.#tree[i]!;
    return sum;
  }

  /** The lowest position with a non-zero count, or `size` when all are zero (counts never go negative). */
  firstNonZero(): number {
    let position = 0;
    for (let step = this.#highBit; step > 0; step >>= 1) {
      const next = position + step;
      if (next <= this.#size && this.#tree[next] === 0) position = next;
    }
    return position;
  }
}
