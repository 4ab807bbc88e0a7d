import type { CheckpointFrontier, FrontierDelta } from "../checkpoint/checkpoint.js";
import { setVisits, visitsOf } from "../checkpoint/visit-counts.js";
import type { GraphTopology } from "../topology/graph-topology.js";
import { UpstreamActivity } from "./upstream-activity.js";

/** Options of {@link Frontier}. */
export interface FrontierOptions {
  /** Where a stopped run stood; its running nodes wait to start again. */
  readonly saved?: CheckpointFrontier;
  /** Record moves for {@link Frontier.takeDelta}; off when nothing is checkpointed. */
  readonly recordDelta?: boolean;
}

/**
 * The scheduler's bookkeeping: which nodes are triggered and waiting, which are running, how
 * often each ran. It decides readiness without supersteps:
 *
 * a waiting node is ready when no node of its own cycle (or itself) is running and no active
 * (waiting or running) node sits upstream of it in the acyclic order of the graph's cycles.
 *
 * So a join waits exactly for the active nodes that may still lead to it: a branch a router
 * did not take is never active, and a slow node that cannot reach a waiting one never delays
 * it. Nodes on one cycle do not wait for each other's triggers (neither is "upstream"). When
 * nothing runs, the lowest waiting component is always ready.
 */
export class Frontier {
  readonly #topology: GraphTopology;
  readonly #activity: UpstreamActivity;
  readonly #waiting = new Set<string>();
  readonly #running = new Set<string>();
  readonly #visits: Record<string, number> = {};
  /** The nodes holding a count in `#visits`, by component, for dropping settled ones. */
  readonly #visitedIn = new Map<number, string[]>();
  /** Components below this one had their counts dropped. */
  #settledBelow = 0;
  readonly #recordDelta: boolean;
  /** Nodes a stopped run left running: their next start re-runs that same visit. */
  readonly #unfinished = new Set<string>();
  #started: string[] = [];
  /** Visit numbers of nodes that started again; none while only first visits started. */
  #startedVisits: Record<string, number> | undefined;
  #finished: string[] = [];
  #triggered: string[] = [];

  constructor(topology: GraphTopology, options: FrontierOptions = {}) {
    this.#topology = topology;
    this.#activity = new UpstreamActivity(topology.condensation);
    this.#recordDelta = options.recordDelta ?? false;
    const { saved } = options;
    if (!saved) return;
    for (const name of [...saved.running, ...saved.pending]) {
      if (topology.nodes.has(name) && !this.#waiting.has(name)) this.#addWaiting(name);
    }
    for (const [name, count] of Object.entries(saved.visits)) this.#setVisits(name, count);
    for (const name of saved.running) {
      if (visitsOf(this.#visits, name) > 0) this.#unfinished.add(name);
    }
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
    if (this.#waiting.has(name)) return;
    this.#addWaiting(name);
    if (this.#recordDelta) this.#triggered.push(name);
  }

  /** The first waiting node that may start now, if any. */
  nextReady(): string | undefined {
    for (const name of this.#waiting) {
      if (!this.#activity.isBlocked(this.#topology.componentOf(name))) return name;
    }
    return undefined;
  }

  /**
   * Moves `name` from waiting to running; returns its visit number (1 for the first run). A
   * node the stopped run left running re-runs the visit it never finished, so that number
   * (and the idempotency key built from it) is the same however often the run is resumed.
   */
  start(name: string): number {
    const component = this.#topology.componentOf(name);
    this.#waiting.delete(name);
    this.#running.add(name);
    this.#activity.changeRunning(component, 1);
    const rerun = this.#unfinished.delete(name);
    const visit = visitsOf(this.#visits, name) + (rerun ? 0 : 1);
    // A first visit is not counted until it ends: while running it is implied, so a fan-out's
    // snapshots and deltas do not name every running branch a second time.
    if (visit > 1) this.#setVisits(name, visit);
    if (this.#recordDelta) {
      this.#started.push(name);
      if (visit > 1) {
        this.#startedVisits ??= {};
        setVisits(this.#startedVisits, name, visit);
      }
    }
    return visit;
  }

  /** `name` ended, triggering `targets` (nodes, not END). */
  finish(name: string, targets: readonly string[]): void {
    if (!this.#running.delete(name)) return;
    const component = this.#topology.componentOf(name);
    this.#activity.changeRunning(component, -1);
    this.#activity.changeActive(component, -1);
    if (this.#recordDelta) this.#finished.push(name);
    for (const target of targets) this.trigger(target);
    // A first visit is counted once it ends, and only if the node may run again: a chain's
    // or a fan-out's nodes, which nothing active can reach any more, keep no count at all.
    if (!Object.hasOwn(this.#visits, name) && this.#activity.mayBeTriggered(component)) {
      this.#setVisits(name, 1);
    }
  }

  /**
   * The whole position, as a snapshot checkpoint stores it. Visit counts are kept only for
   * nodes that may still start in this run, so a snapshot grows with what is active, not
   * with how many nodes ran so far (a 10,000-node chain would otherwise copy every count
   * into each of its 100 snapshots).
   */
  snapshot(): CheckpointFrontier {
    this.#forgetSettledVisits();
    return {
      pending: [...this.#waiting],
      running: [...this.#running],
      visits: { ...this.#visits },
    };
  }

  /**
   * What moved since the last call (or since construction), as a node-end checkpoint stores
   * it: proportional to the moves, not to the size of the run.
   */
  takeDelta(): FrontierDelta {
    // Assigned, not spread: this runs for every checkpoint.
    const delta: { -readonly [K in keyof FrontierDelta]: FrontierDelta[K] } = {};
    if (this.#started.length > 0) delta.started = this.#started;
    if (this.#startedVisits) delta.visits = this.#startedVisits;
    if (this.#finished.length > 0) delta.finished = this.#finished;
    if (this.#triggered.length > 0) delta.triggered = this.#triggered;
    this.#started = [];
    this.#startedVisits = undefined;
    this.#finished = [];
    this.#triggered = [];
    return delta;
  }

  /**
   * Drops the visit counts of nodes numbered below the lowest active component: triggers only
   * go downstream, so none of them can start again in this run and no resume asks for their
   * count. The lowest active component only rises, so each count is dropped once and the
   * components are walked once over the whole run.
   */
  #forgetSettledVisits(): void {
    const lowest = this.#activity.lowestActive();
    for (; this.#settledBelow < lowest; this.#settledBelow++) {
      for (const name of this.#visitedIn.get(this.#settledBelow) ?? []) delete this.#visits[name];
      this.#visitedIn.delete(this.#settledBelow);
    }
  }

  /** Sets a count, remembering a node counted for the first time under its component. */
  #setVisits(name: string, count: number): void {
    if (!Object.hasOwn(this.#visits, name) && this.#topology.nodes.has(name)) {
      const component = this.#topology.componentOf(name);
      const names = this.#visitedIn.get(component);
      if (names) names.push(name);
      else this.#visitedIn.set(component, [name]);
    }
    setVisits(this.#visits, name, count);
  }

  #addWaiting(name: string): void {
    this.#waiting.add(name);
    this.#activity.changeActive(this.#topology.componentOf(name), 1);
  }
}
