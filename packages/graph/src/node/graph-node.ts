import type { AgentEvent, Logger } from "@framework/core";
import type { GraphConfig } from "../config/graph-config.js";
import type { StateRecord } from "../state/state-engine.js";
import { EdgeChain, type NodeRef } from "./edge-chain.js";

/** What a node knows about the run it is part of. */
export interface NodeContext {
  /** Fires when the run is cancelled or a sibling failed; long work should stop then. */
  readonly signal: AbortSignal;
  /** The config the run was invoked with. */
  readonly config: GraphConfig;
  /** This node's name. */
  readonly nodeName: string;
  /** 1-based count of node runs in this invocation, this one included. */
  readonly step: number;
  /**
   * 1-based number of this node's visit in this run (above 1 inside loops). A node re-run
   * because the run stopped before it finished (crash, failure, cancel, interrupt) keeps
   * the visit it had.
   */
  readonly visit: number;
  /**
   * The same for every attempt of this visit, different for any other: a hash of the
   * thread, the run, the node and the visit. Nodes may run again after a crash, so pass it
   * to side effects that accept one (a payment API's idempotency key, a unique column) to
   * have them happen once.
   */
  readonly idempotencyKey: string;
  /** The graph's logger. */
  readonly logger: Logger;
  /** Reports an event of an agent working for this node; `stream` yields it tagged `agent`. */
  readonly agentEvent: (event: AgentEvent) => void;
  /**
   * Sends `data` (plain JSON: progress, partial results, anything a client shows while the
   * node works) to whoever streams the run: `stream` yields `{ type: "custom", node, data }`
   * at once, and a server streams it as LangGraph's `custom` mode. Named after LangGraph's
   * `config.writer`, which code ported from it calls the same way (`writer({ progress })`).
   * Nothing is saved: without a stream it goes nowhere, and a node re-run writes again.
   */
  readonly writer: (data: unknown) => void;
  /**
   * Pauses the run to ask `value` (plain JSON) of a person or another system: the run ends as
   * `"interrupted"` once the other running nodes end, and `graph.invoke(resume(answer))` runs
   * this node again from the start, where this call returns `answer`. Several calls in one
   * node are answered in order, one resume each, so code before an interrupt runs again on
   * every resume: keep side effects after it.
   */
  interrupt<R = unknown>(value: unknown): R;
}

/** What a node returns: an update to merge, or nothing. */
export type NodeResult<U> = U | null | undefined;

/**
 * A node of a graph: a name and `run`, which receives a snapshot of the state taken when the
 * node starts and returns an update merged when it ends. Subclass it for nodes with behaviour
 * of their own (an agent node implements `run` on top of its `exec`); use `node(name, fn)`
 * for a plain function.
 */
export abstract class GraphNode<S = StateRecord, U = Partial<S>> {
  /** Unique within a graph; `__start__`, `__end__` and `""` are reserved. */
  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  /** Does the node's work. The state is frozen; return changes, never mutate it. */
  abstract run(state: S, context: NodeContext): NodeResult<U> | Promise<NodeResult<U>>;

  /** The edge `this -> next`, as a chain that can be extended with `.to()`. */
  to(next: NodeRef): EdgeChain {
    return EdgeChain.of(this, next);
  }
}

/** A node value of any state type, as edges and builders accept it. */
export type AnyGraphNode = GraphNode<never, unknown>;
