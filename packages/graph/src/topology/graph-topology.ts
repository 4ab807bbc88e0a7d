import { GraphValidationError } from "../error/graph-validation-error.js";
import { type NodeRef, refName } from "../node/edge-chain.js";
import { END_NAME, START_NAME } from "../node/endpoints.js";
import type { AnyGraphNode } from "../node/graph-node.js";
import { type Condensation, condense } from "./condensation.js";
import type { Router } from "./router.js";

/** A conditional edge as declared: its router and, if given, where it may lead. */
export interface BranchDeclaration {
  readonly source: string;
  readonly router: Router<never>;
  /** Router result to target name, when the path map was a record. */
  readonly map?: ReadonlyMap<string, string>;
  /** The declared possible targets; absent means "any node or END". */
  readonly targets?: readonly string[];
}

/** What a builder hands to `compile`: nodes, edges and the problems met while adding them. */
export interface GraphDeclaration {
  readonly nodes: ReadonlyMap<string, AnyGraphNode>;
  readonly edges: readonly { readonly from: string; readonly to: string }[];
  readonly branches: readonly BranchDeclaration[];
}

/**
 * The compiled shape of a graph: successors of every node (and of START), and its cycles
 * condensed into components numbered in topological order, through static edges and every
 * possible target of conditional edges. Built in O(nodes + edges): a conditional edge
 * without declared targets leads to one shared hub vertex that leads to every node, instead
 * of to every node directly. The scheduler asks it whether an active node may still lead to a
 * waiting one through {@link condensation}.
 */
export class GraphTopology {
  readonly nodes: ReadonlyMap<string, AnyGraphNode>;
  /** Components of the possible-transition graph; vertex 0 is START, nodes follow. */
  readonly condensation: Condensation;
  readonly #edges = new Map<string, string[]>();
  readonly #branches = new Map<string, BranchDeclaration[]>();
  readonly #vertex = new Map<string, number>();
  readonly #declaredTargets = new Map<BranchDeclaration, ReadonlySet<string>>();
  /** Successor vertices; the last vertex is the hub when a branch declares no targets. */
  readonly #successors: number[][];
  /** Vertices that may lead to END directly. */
  readonly #endsDirectly: Uint8Array;

  constructor(declaration: GraphDeclaration) {
    this.nodes = declaration.nodes;
    const seenEdges = new Set<string>();
    for (const { from, to } of declaration.edges) {
      // A pair key instead of `includes`: START of a 10,000-branch fan-out has 10,000 targets.
      const key = JSON.stringify([from, to]);
      if (seenEdges.has(key)) continue;
      seenEdges.add(key);
      const targets = this.#edges.get(from) ?? [];
      targets.push(to);
      this.#edges.set(from, targets);
    }
    for (const branch of declaration.branches) {
      const list = this.#branches.get(branch.source) ?? [];
      list.push(branch);
      this.#branches.set(branch.source, list);
      if (branch.targets) this.#declaredTargets.set(branch, new Set(branch.targets));
    }
    const names = [START_NAME, ...this.nodes.keys()];
    names.forEach((name, vertex) => {
      this.#vertex.set(name, vertex);
    });
    const hub = names.length;
    this.#successors = Array.from({ length: hub + 1 }, () => []);
    this.#endsDirectly = new Uint8Array(hub + 1);
    let hubUsed = false;
    names.forEach((name, vertex) => {
      const successors = this.#successors[vertex]!;
      const add = (target: string) => {
        if (target === END_NAME) this.#endsDirectly[vertex] = 1;
        const next = target === START_NAME ? undefined : this.#vertex.get(target);
        if (next !== undefined) successors.push(next);
      };
      for (const target of this.staticTargets(name)) add(target);
      for (const branch of this.branches(name)) {
        if (branch.targets) {
          for (const target of branch.targets) add(target);
        } else {
          hubUsed = true;
          this.#endsDirectly[vertex] = 1;
          successors.push(hub);
        }
      }
    });
    if (hubUsed) this.#successors[hub] = names.slice(1).map((_, index) => index + 1);
    this.condensation = condense(this.#successors);
  }

  /** The component of a node, for {@link condensation}. */
  componentOf(name: string): number {
    return this.condensation.componentOf[this.#vertex.get(name)!]!;
  }

  /** Nodes no path from START reaches, in declaration order. */
  unreachableFromStart(): string[] {
    const seen = this.#search([0], (vertex) => this.#successors[vertex]!);
    return [...this.nodes.keys()].filter((name) => !seen[this.#vertex.get(name)!]);
  }

  /** Nodes with no path to END, in declaration order. */
  withoutPathToEnd(): string[] {
    const predecessors: number[][] = this.#successors.map(() => []);
    this.#successors.forEach((successors, vertex) => {
      for (const next of successors) predecessors[next]!.push(vertex);
    });
    const enders: number[] = [];
    this.#endsDirectly.forEach((ends, vertex) => {
      if (ends) enders.push(vertex);
    });
    const seen = this.#search(enders, (vertex) => predecessors[vertex]!);
    return [...this.nodes.keys()].filter((name) => !seen[this.#vertex.get(name)!]);
  }

  /** Targets of static edges from `source` (END included). */
  staticTargets(source: string): readonly string[] {
    return this.#edges.get(source) ?? [];
  }

  /** Conditional edges from `source`, in declaration order. */
  branches(source: string): readonly BranchDeclaration[] {
    return this.#branches.get(source) ?? [];
  }

  /** Every name an edge from `source` may lead to, END included. */
  possibleTargets(source: string): string[] {
    const targets = new Set(this.staticTargets(source));
    for (const branch of this.branches(source)) {
      for (const target of branch.targets ?? [...this.nodes.keys(), END_NAME]) targets.add(target);
    }
    return [...targets];
  }

  /**
   * The node a router's result stands for.
   *
   * @throws GraphValidationError when the result is not a declared path or not a node.
   */
  resolveRoute(branch: BranchDeclaration, result: NodeRef): string {
    // A router that forgets to return gives `undefined`; report it like any bad route.
    const key = result == null ? String(result) : refName(result);
    const target = branch.map ? branch.map.get(key) : key;
    const allowed =
      target !== undefined &&
      (target === END_NAME || this.nodes.has(target)) &&
      (this.#declaredTargets.get(branch)?.has(target) ?? branch.targets === undefined);
    if (!allowed) {
      const declared = branch.map ? [...branch.map.keys()] : branch.targets;
      const hint = declared ? ` (declared: ${declared.map((d) => `"${d}"`).join(", ")})` : "";
      throw new GraphValidationError({
        issues: [
          {
            code: "unknown_route",
            nodes: [branch.source, key],
            message: `The router after "${branch.source}" returned "${key}", which is not a possible target${hint}`,
          },
        ],
      });
    }
    return target;
  }

  #search(from: readonly number[], next: (vertex: number) => readonly number[]): Uint8Array {
    const seen = new Uint8Array(this.#successors.length);
    const stack = [...from];
    for (const vertex of from) seen[vertex] = 1;
    while (stack.length > 0) {
      for (const following of next(stack.pop()!)) {
        if (seen[following]) continue;
        seen[following] = 1;
        stack.push(following);
      }
    }
    return seen;
  }
}
