import { FrameworkError } from "@framework/core";

const name = "NodeInterrupt";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Unwinds a node that called `context.interrupt` without an answer. Not an error: the run
 * pauses instead of failing. A node that catches every exception must rethrow this one.
 */
export class NodeInterrupt extends FrameworkError {
  private readonly [symbol] = true;
  /** What the node asked, shown to whoever answers. */
  declare readonly value: unknown;

  constructor(value: unknown) {
    super({
      name,
      message: "The node is waiting for an answer (graph interrupt)",
      fields: { value },
    });
  }

  static override isInstance(error: unknown): error is NodeInterrupt {
    return FrameworkError.hasMarker(error, marker);
  }
}
