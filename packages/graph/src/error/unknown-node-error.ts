import { FrameworkError } from "@framework/core";

const name = "UnknownNodeError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** `updateState(config, update, { asNode })` named a node the graph does not have. */
export class UnknownNodeError extends FrameworkError {
  private readonly [symbol] = true;

  /** The name given. */
  declare readonly node: string;
  /** The graph's nodes, in the order they were added. */
  declare readonly nodes: readonly string[];

  constructor({ node, nodes }: { node: string; nodes: readonly string[] }) {
    super({
      name,
      message: `The graph has no node "${node}" (its nodes: ${nodes.map((n) => `"${n}"`).join(", ")})`,
      fields: { node, nodes },
    });
  }

  static override isInstance(error: unknown): error is UnknownNodeError {
    return FrameworkError.hasMarker(error, marker);
  }
}
