import type { AgentEvent } from "@framework/core";
import type { StateRecord } from "../state/state-engine.js";

/** A node started. */
export interface NodeStartEvent {
  readonly type: "node_start";
  readonly node: string;
  /** 1-based count of node runs in this invocation. */
  readonly step: number;
  /** 1-based count of this node's runs in this run. */
  readonly visit: number;
}

/** A node ended and its update was merged and checkpointed. */
export interface NodeEndEvent<U = StateRecord> {
  readonly type: "node_end";
  readonly node: string;
  readonly step: number;
  /** The keys the node wrote (reducer keys as the node returned them). */
  readonly update: U;
}

/** The run finished; always the last event of a successful stream. */
export interface RunDoneEvent<S = StateRecord> {
  readonly type: "done";
  readonly state: S;
}

/** An event of the agent working inside a node (an `AgentNode`), tagged with the node. */
export interface NodeAgentEvent {
  readonly type: "agent";
  readonly node: string;
  readonly event: AgentEvent;
}

/** What a node sent with `context.writer(data)`, as it sent it. */
export interface NodeCustomEvent {
  readonly type: "custom";
  readonly node: string;
  readonly data: unknown;
}

/**
 * A node called `context.interrupt(value)`: the run pauses once the nodes still running end,
 * and the stream ends without a `done` event.
 */
export interface InterruptEvent {
  readonly type: "interrupt";
  /** The question's id, which `resumeByIds` answers it by (as in `getState().interrupts`). */
  readonly id: string;
  readonly node: string;
  readonly value: unknown;
}

/** What `stream()` yields, in the order things happened. */
export type GraphEvent<S = StateRecord, U = StateRecord> =
  | NodeStartEvent
  | NodeEndEvent<U>
  | InterruptEvent
  | RunDoneEvent<S>
  | NodeAgentEvent
  | NodeCustomEvent;
