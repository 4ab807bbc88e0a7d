import { FrameworkError } from "@framework/core";

const name = "StateConflictError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Two nodes whose runs overlapped both wrote a key that keeps only the last value, so which
 * write should win is undefined. Give the key a reducer, or order the nodes with an edge.
 */
export class StateConflictError extends FrameworkError {
  private readonly [symbol] = true;

  declare readonly key: string;
  /** The two writers: the one merged first, then the one whose write was refused. */
  declare readonly nodes: readonly [string, string];

  constructor({ key, nodes }: { key: string; nodes: readonly [string, string] }) {
    super({
      name,
      message:
        `Nodes "${nodes[0]}" and "${nodes[1]}" both wrote state key "${key}" while running ` +
        "concurrently; give the key a reducer or add an edge so that one runs after the other",
      fields: { key, nodes },
    });
  }

  static override isInstance(error: unknown): error is StateConflictError {
    return FrameworkError.hasMarker(error, marker);
  }
}
