import type { CheckpointFrontier } from "../checkpoint/checkpoint.js";
import type { GraphTopology } from "../graph/graph-topology.js";

/**
 * The scheduler's bookkeeping: which nodes are triggered and waiting, which are running, how
 * often each ran. It decides readiness without supersteps:
 *
 * a waiting node is ready when it is not running itself, no running node can reach it, and
 * no other waiting node can reach it, except one it can reach back (both sit on one cycle,
 * where neither is "upstream"; they may start together).
 *
 * So a join waits exactly for the active nodes that may still lead to it: a branch a router
 * did not take is never active, and a slow node that cannot reach a waiting one never delays
 * it. Waits only point from a node to nodes upstream of it in the acyclic order of the
 * graph's cycles, so when nothing runs some waiting node is always ready.
 */
export class Frontier {
  readonly #topology: GraphTopology;
  readonly #waiting = new Set<string>();
  readonly #running = new Set<string>();
  // A plain record rather than a Map: every checkpoint copies it, and copying a record is
  // about a hundred times cheaper than `Object.fromEntries` on a Map of a few hundred nodes.
  readonly #visits: Record<string, number> = {};

  constructor(topology: GraphTopology, saved?: CheckpointFrontier) {
    this.#topology = topology;
    if (!saved) return;
    for (const name of [...saved.running, ...saved.pending]) {
      if (topology.nodes.has(name)) this.#waiting.add(name);
    }
    for (const [name, count] of Object.entries(saved.visits)) this.#setVisits(name, count);
  }

  /** True when nothing waits and nothing runs: the run is over. */
  get idle(): boolean {
    return this.#waiting.size === 0 && this.#running.size === 0;
  }

  /** Names of the waiting nodes, in trigger order. */
  get waiting(): readonly string[] {
    return [...this.#waiting];
  }

  /** Marks `name` to run (once, however many predecessors trigger it before it starts). */
  trigger(name: string): void {
    this.#waiting.add(name);
  }

  /** The first waiting node that may start now, if any. */
  nextReady(): string | undefined {
    for (const name of this.#waiting) {
      if (this.#isReady(name)) return name;
    }
    return undefined;
  }

  /** Moves `name` from waiting to running; returns its visit number (1 for the first run). */
  start(name: string): number {
    this.#waiting.delete(name);
    this.#running.add(name);
    const visit = (Object.hasOwn(this.#visits, name) ? this.#visits[name]! : 0) + 1;
    this.#setVisits(name, visit);
    return visit;
  }

  /** `name` ended; anything it triggers is added with {@link trigger}. */
  finish(name: string): void {
    this.#running.delete(name);
  }

  /** The plain-data form a checkpoint stores. */
  snapshot(): CheckpointFrontier {
    return {
      pending: [...this.#waiting],
      running: [...this.#running],
      visits: { ...this.#visits },
    };
  }

  // Defined, not assigned, so a node named like an Object.prototype member ("__proto__")
  // gets an own entry instead of touching the prototype.
  #setVisits(name: string, count: number): void {
    Object.defineProperty(this.#visits, name, {
      value: count,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }

  #isReady(name: string): boolean {
    if (this.#running.has(name)) return false;
    const topology = this.#topology;
    for (const running of this.#running) {
      if (topology.canReach(running, name)) return false;
    }
    for (const other of this.#waiting) {
      if (other !== name && topology.canReach(other, name) && !topology.canReach(name, other)) {
        return false;
      }
    }
    return true;
  }
}
