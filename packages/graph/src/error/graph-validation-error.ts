import { FrameworkError } from "@framework/core";

const name = "GraphValidationError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** Which rule a graph broke. */
export type GraphIssueCode =
  | "reserved_name"
  | "duplicate_name"
  | "unknown_node"
  | "invalid_edge"
  | "no_entry"
  | "unreachable"
  | "no_path_to_end"
  | "unknown_route";

/** One problem found in a graph, naming the nodes involved. */
export interface GraphIssue {
  readonly code: GraphIssueCode;
  /** The node names involved, as written by the user. */
  readonly nodes: readonly string[];
  readonly message: string;
}

/**
 * A graph is not well formed: thrown by `compile()` with every problem found at once, and
 * by a run when a router returns a node the graph does not have.
 */
export class GraphValidationError extends FrameworkError {
  private readonly [symbol] = true;

  declare readonly issues: readonly GraphIssue[];

  constructor({ issues }: { issues: readonly GraphIssue[] }) {
    const detail = issues.map((issue) => `- ${issue.message}`).join("\n");
    super({ name, message: `Invalid graph:\n${detail}`, fields: { issues } });
  }

  static override isInstance(error: unknown): error is GraphValidationError {
    return FrameworkError.hasMarker(error, marker);
  }
}
