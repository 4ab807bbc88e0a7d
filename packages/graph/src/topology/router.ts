import type { GraphConfig } from "../config/graph-config.js";
import type { NodeRef } from "../node/edge-chain.js";
import type { StateRecord } from "../state/state-engine.js";

/** What a router knows besides the state. */
export interface RouterContext {
  /** The node (or `"__start__"`) whose outgoing edges are being decided. */
  readonly source: string;
  readonly signal: AbortSignal;
  readonly config: GraphConfig;
}

/** Where to go next: one node, `END`, or several of them (they start concurrently). */
export type RouteResult = NodeRef | readonly NodeRef[];

/**
 * Decides a conditional edge from the state after the source node's update was merged.
 * With a path map given as a record, it returns keys of that record instead of node names.
 */
export type Router<S = StateRecord> = (
  state: S,
  context: RouterContext,
) => RouteResult | Promise<RouteResult>;

/**
 * The possible targets of a conditional edge: a record from router result to node, or the
 * list of nodes the router may return. Declaring them lets `compile` check reachability and
 * lets the scheduler start nodes the router can never reach without waiting for it.
 */
export type PathMap = Readonly<Record<string, NodeRef>> | readonly NodeRef[];
