import { GraphValidationError } from "../error/graph-validation-error.js";
import { type AnyGraphNode, type NodeRef, refName } from "./edge-chain.js";
import { END_NAME, START_NAME } from "./endpoints.js";
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
 * The compiled shape of a graph: successors of every node (and of START) and which nodes can
 * reach which, through static edges and every possible target of conditional edges. The
 * scheduler asks it whether an active node can still lead to a waiting one.
 */
export class GraphTopology {
  readonly nodes: ReadonlyMap<string, AnyGraphNode>;
  readonly #edges = new Map<string, string[]>();
  readonly #branches = new Map<string, BranchDeclaration[]>();
  readonly #reach = new Map<string, Set<string>>();

  constructor(declaration: GraphDeclaration) {
    this.nodes = declaration.nodes;
    for (const { from, to } of declaration.edges) {
      const targets = this.#edges.get(from) ?? [];
      if (!targets.includes(to)) targets.push(to);
      this.#edges.set(from, targets);
    }
    for (const branch of declaration.branches) {
      const list = this.#branches.get(branch.source) ?? [];
      list.push(branch);
      this.#branches.set(branch.source, list);
    }
    for (const source of [START_NAME, ...this.nodes.keys()]) {
      this.#reach.set(source, this.#descendants(source));
    }
  }

  /** Targets of static edges from `source` (END included). */
  staticTargets(source: string): readonly string[] {
    return this.#edges.get(source) ?? [];
  }

  /** Conditional edges from `source`, in declaration order. */
  branches(source: string): readonly BranchDeclaration[] {
    return this.#branches.get(source) ?? [];
  }

  /** Whether any run of `from` can lead, over one or more edges, to a run of `to`. */
  canReach(from: string, to: string): boolean {
    return this.#reach.get(from)?.has(to) ?? false;
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
      (branch.targets === undefined || branch.targets.includes(target));
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

  #descendants(source: string): Set<string> {
    const seen = new Set<string>();
    const stack = [source];
    while (stack.length > 0) {
      const current = stack.pop()!;
      for (const next of this.possibleTargets(current)) {
        if (next === END_NAME || seen.has(next) || !this.nodes.has(next)) continue;
        seen.add(next);
        stack.push(next);
      }
    }
    return seen;
  }
}
