import { EdgeChain, type NodeRef } from "./edge-chain.js";

/** Name of the virtual entry node; reserved. */
export const START_NAME = "__start__";
/** Name of the virtual exit node; reserved. */
export const END_NAME = "__end__";

/** The virtual node every run starts from; `START.to(a)` is the edge into `a`. */
export class StartEndpoint {
  readonly name = START_NAME;

  /** The edge `START -> next`, as a chain that can be extended with `.to()`. */
  to(next: NodeRef): EdgeChain {
    return EdgeChain.of(this, next);
  }
}

/** The virtual node a run ends at; a router returns it to stop a branch. */
export class EndEndpoint {
  readonly name = END_NAME;
}

/** The graph's entry. */
export const START: StartEndpoint = new StartEndpoint();
/** The graph's exit. */
export const END: EndEndpoint = new EndEndpoint();
