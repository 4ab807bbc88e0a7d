import type { Condensation } from "../topology/condensation.js";
import { RangeCounter } from "./range-counter.js";

/** Why a component was last found blocked: the active ancestor and where the search began. */
interface Blocker {
  readonly component: number;
  readonly root: number;
}

/**
 * Which components of the graph hold active (waiting or running) nodes, and whether one has
 * an active component upstream of it. Components are numbered in topological order, so a
 * prefix count of zero answers most questions in O(log n); otherwise a search walks the
 * component's ancestors, skipping any numbered below the lowest active one, and remembers
 * the active ancestor it found: while that one stays active the answer costs O(1), and the
 * next search starts at the following predecessor, so a join waiting for 10,000 branches that
 * end one by one pays O(1) per branch instead of rescanning them all.
 */
export class UpstreamActivity {
  readonly #condensation: Condensation;
  readonly #active: Int32Array;
  readonly #running: Int32Array;
  readonly #counter: RangeCounter;
  readonly #blockers = new Map<number, Blocker>();
  readonly #visited: Int32Array;
  #stamp = 0;

  constructor(condensation: Condensation) {
    this.#condensation = condensation;
    this.#active = new Int32Array(condensation.count);
    this.#running = new Int32Array(condensation.count);
    this.#counter = new RangeCounter(condensation.count);
    this.#visited = new Int32Array(condensation.count);
  }

  /** One more (`+1`) or one fewer (`-1`) active entry in `component`. */
  changeActive(component: number, delta: 1 | -1): void {
    this.#active[component]! += delta;
    this.#counter.add(component, delta);
  }

  /** One more or one fewer running node in `component`. */
  changeRunning(component: number, delta: 1 | -1): void {
    this.#running[component]! += delta;
  }

  /**
   * The lowest-numbered component holding an active node (the component count when none
   * does). It never decreases within a run: a node is triggered only by one upstream of it.
   */
  lowestActive(): number {
    return this.#counter.firstNonZero();
  }

  /**
   * Whether a node of `component` must wait: a node of its own component runs (nodes on one
   * cycle never run at once), or an active node sits in a component upstream of it.
   */
  isBlocked(component: number): boolean {
    return this.#running[component]! > 0 || this.#hasActiveUpstream(component);
  }

  /**
   * Whether a node of `component` may still be triggered in this run: a node of its own
   * component is active, or one upstream of it. Triggers only go downstream, so once this is
   * false it stays false.
   */
  mayBeTriggered(component: number): boolean {
    return this.#active[component]! > 0 || this.#hasActiveUpstream(component);
  }

  #hasActiveUpstream(component: number): boolean {
    if (this.#counter.sumBefore(component) === 0) return false;
    const remembered = this.#blockers.get(component);
    if (remembered && this.#active[remembered.component]! > 0) return true;
    const found = this.#searchAncestors(component, remembered?.root ?? 0);
    if (found) this.#blockers.set(component, found);
    else this.#blockers.delete(component);
    return found !== undefined;
  }

  #searchAncestors(component: number, firstRoot: number): Blocker | undefined {
    const { predecessors } = this.#condensation;
    const roots = predecessors[component]!;
    const lowestActive = this.#counter.firstNonZero();
    const visited = this.#visited;
    const stamp = ++this.#stamp;
    const stack: number[] = [];
    for (let offset = 0; offset < roots.length; offset++) {
      const root = (firstRoot + offset) % roots.length;
      stack.push(roots[root]!);
      while (stack.length > 0) {
        const current = stack.pop()!;
        if (current < lowestActive || visited[current] === stamp) continue;
        visited[current] = stamp;
        if (this.#active[current]! > 0) return { component: current, root };
        for (const ancestor of predecessors[current]!) stack.push(ancestor);
      }
    }
    return undefined;
  }
}
