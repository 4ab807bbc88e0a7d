import { FrameworkError } from "@framework/core";

const name = "NodeExecutionError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** A node (or the router on its outgoing edges) threw; `cause` is what it threw. */
export class NodeExecutionError extends FrameworkError {
  private readonly [symbol] = true;

  declare readonly node: string;
  /** Whether the node itself or the router deciding where to go after it failed. */
  declare readonly phase: "node" | "router";

  constructor({
    node,
    phase = "node",
    cause,
  }: { node: string; phase?: "node" | "router"; cause: unknown }) {
    const what = phase === "node" ? `Node "${node}"` : `The router after node "${node}"`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super({ name, message: `${what} failed: ${reason}`, cause, fields: { node, phase } });
  }

  static override isInstance(error: unknown): error is NodeExecutionError {
    return FrameworkError.hasMarker(error, marker);
  }
}
