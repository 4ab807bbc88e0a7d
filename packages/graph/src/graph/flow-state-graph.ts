import { type GraphIssue, GraphValidationError } from "../error/graph-validation-error.js";
import { type Edge, type EdgeChain, type NodeRef, refName } from "../node/edge-chain.js";
import { END_NAME, START_NAME } from "../node/endpoints.js";
import { FunctionNode, type NodeFunction } from "../node/function-node.js";
import { type AnyGraphNode, GraphNode } from "../node/graph-node.js";
import type { StateDefinition, StateOf, UpdateOf } from "../state/state-definition.js";
import { type BranchDeclaration, GraphTopology } from "../topology/graph-topology.js";
import type { PathMap, Router } from "../topology/router.js";
import { validateGraph } from "../topology/validate-graph.js";
import { type CompiledGraph, type CompileOptions, compileGraph } from "./compiled-graph.js";

const reservedNames = new Set([START_NAME, END_NAME]);

/**
 * Builds a graph over a typed state, in two forms that mix freely: the builder (`addNode`,
 * `addEdge`, `addConditionalEdges`) and the flow form (`addFlow([START.to(a), a.to(END)])`).
 * Nothing is checked until `compile`, which reports every problem at once.
 *
 * @example
 * const graph = new FlowStateGraph(TradingState);
 * graph.addNode("market", async (state) => ({ equity_insight: "..." }));
 * graph.addEdge(START, "market");
 * graph.addEdge("market", END);
 * const app = graph.compile({ checkpointer: new MemorySaver() });
 */
export class FlowStateGraph<D extends StateDefinition = StateDefinition> {
  /** The state the graph runs over. */
  readonly definition: D;
  readonly #nodes = new Map<string, AnyGraphNode>();
  readonly #edges: { from: string; to: string }[] = [];
  readonly #branches: BranchDeclaration[] = [];
  readonly #issues: GraphIssue[] = [];

  constructor(definition: D) {
    this.definition = definition;
  }

  /** Adds a node made of a function of the state. */
  addNode(name: string, fn: NodeFunction<StateOf<D>, UpdateOf<D>>): this;
  /** Adds a node value (`node(...)`, or a `GraphNode` subclass such as an agent node). */
  addNode(node: AnyGraphNode): this;
  addNode(nameOrNode: string | AnyGraphNode, fn?: NodeFunction<StateOf<D>, UpdateOf<D>>): this {
    if (typeof nameOrNode !== "string") {
      this.#register(nameOrNode);
    } else if (fn === undefined) {
      throw new TypeError(`addNode("${nameOrNode}") needs the node's function`);
    } else {
      this.#register(new FunctionNode(nameOrNode, fn) as unknown as AnyGraphNode);
    }
    return this;
  }

  /** Adds the edge `from -> to`; `to` starts when `from` ends (joins wait, see README). */
  addEdge(from: NodeRef, to: NodeRef): this {
    this.#edges.push({ from: this.#resolve(from), to: this.#resolve(to) });
    return this;
  }

  /**
   * Adds a conditional edge: after `from` ends, `router` picks the next node(s) or `END`
   * from the updated state. Declare the possible targets with `pathMap` (a record from
   * router result to node, or a list of nodes); without it the edge may lead anywhere, which
   * makes every node downstream of `from` wait for it.
   */
  addConditionalEdges(from: NodeRef, router: Router<StateOf<D>>, pathMap?: PathMap): this {
    const source = this.#resolve(from);
    const base = { source, router: router as Router<never> };
    if (pathMap === undefined) {
      this.#branches.push(base);
    } else if (isRefList(pathMap)) {
      this.#branches.push({ ...base, targets: pathMap.map((ref) => this.#resolve(ref)) });
    } else {
      const map = new Map<string, string>();
      for (const [key, ref] of Object.entries(pathMap)) map.set(key, this.#resolve(ref));
      this.#branches.push({ ...base, map, targets: [...new Set(map.values())] });
    }
    return this;
  }

  /**
   * Adds edge chains such as `[START.to(market), market.to(recommender), recommender.to(END)]`,
   * registering the node values they mention.
   */
  addFlow(flow: Iterable<EdgeChain | Edge>): this {
    for (const item of flow) {
      const edges: Iterable<Edge> = isEdge(item) ? [item] : item;
      for (const edge of edges) this.addEdge(edge.from, edge.to);
    }
    return this;
  }

  /**
   * Checks the graph and returns a runnable one.
   *
   * @throws GraphValidationError listing every problem, each naming its nodes.
   * @throws ConfigurationError when `snapshotRatio` is not a number of at least 0, or
   *   `snapshotEvery` not a whole number of at least 1 (or `Infinity`).
   */
  compile(options: CompileOptions = {}): CompiledGraph<D> {
    const declaration = { nodes: this.#nodes, edges: this.#edges, branches: this.#branches };
    const topology = new GraphTopology(declaration);
    const issues = [...this.#issues, ...validateGraph(declaration, topology)];
    if (issues.length > 0) throw new GraphValidationError({ issues });
    return compileGraph(this.definition, topology, options);
  }

  #resolve(ref: NodeRef): string {
    if (ref instanceof GraphNode) this.#register(ref);
    return refName(ref);
  }

  #register(node: AnyGraphNode): void {
    const { name } = node;
    if (reservedNames.has(name) || name === "") {
      const message =
        name === ""
          ? "A node has an empty name"
          : `Node name "${name}" is reserved for ${name === START_NAME ? "START" : "END"}`;
      this.#issues.push({ code: "reserved_name", nodes: [name], message });
      return;
    }
    const existing = this.#nodes.get(name);
    if (existing === node) return;
    if (existing) {
      this.#issues.push({
        code: "duplicate_name",
        nodes: [name],
        message: `Two different nodes are named "${name}"`,
      });
      return;
    }
    this.#nodes.set(name, node);
  }
}

function isRefList(pathMap: PathMap): pathMap is readonly NodeRef[] {
  return Array.isArray(pathMap);
}

function isEdge(item: EdgeChain | Edge): item is Edge {
  return "from" in item;
}
