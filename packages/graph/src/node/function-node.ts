import type { StateRecord } from "../state/state-engine.js";
import { GraphNode, type NodeContext, type NodeResult } from "./graph-node.js";

/** A node's work as a function of the state snapshot and the run context. */
export type NodeFunction<S = StateRecord, U = Partial<S>> = (
  state: S,
  context: NodeContext,
) => NodeResult<U> | Promise<NodeResult<U>>;

/** A node whose work is a plain function. */
export class FunctionNode<S = StateRecord, U = Partial<S>> extends GraphNode<S, U> {
  readonly #fn: NodeFunction<S, U>;

  constructor(name: string, fn: NodeFunction<S, U>) {
    super(name);
    this.#fn = fn;
  }

  override run(state: S, context: NodeContext): NodeResult<U> | Promise<NodeResult<U>> {
    return this.#fn(state, context);
  }
}

/**
 * A node value for the flow form; state and update types can be given explicitly.
 *
 * @example
 * const market = node("market", async (state) => ({ equity_insight: "..." }));
 * graph.addFlow([START.to(market), market.to(END)]);
 */
export function node<S = StateRecord, U = Partial<S>>(
  name: string,
  fn: NodeFunction<S, U>,
): FunctionNode<S, U> {
  return new FunctionNode(name, fn);
}
