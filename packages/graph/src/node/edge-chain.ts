/** Anything naming a node or endpoint: its name, a node value, `START` or `END`. */
export type NodeRef = string | { readonly name: string };

/** One directed edge of a flow. */
export interface Edge {
  readonly from: NodeRef;
  readonly to: NodeRef;
}

/**
 * An immutable list of edges built by chaining `.to()`: `START.to(a).to(b)` holds
 * `START -> a` and `a -> b`. Each `.to()` returns a new chain; the receiver is unchanged, so
 * chains can be shared and extended in several directions.
 */
export class EdgeChain implements Iterable<Edge> {
  readonly edges: readonly Edge[];

  private constructor(edges: readonly Edge[]) {
    this.edges = Object.freeze(edges);
  }

  /** A chain holding the single edge `from -> to`. */
  static of(from: NodeRef, to: NodeRef): EdgeChain {
    return new EdgeChain([Object.freeze({ from, to })]);
  }

  /** Number of edges in the chain. */
  get length(): number {
    return this.edges.length;
  }

  /** A new chain with one more edge, from this chain's last target to `next`. */
  to(next: NodeRef): EdgeChain {
    const last = this.edges[this.edges.length - 1]!;
    return new EdgeChain([...this.edges, Object.freeze({ from: last.to, to: next })]);
  }

  [Symbol.iterator](): Iterator<Edge> {
    return this.edges[Symbol.iterator]();
  }
}

/** The name a reference stands for. */
export function refName(ref: NodeRef): string {
  return typeof ref === "string" ? ref : ref.name;
}
