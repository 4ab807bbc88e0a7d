import { FrameworkError } from "@framework/core";

const name = "StateValidationError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A state update was refused: its value fails the key's schema, the key is not part of the
 * state, or the update is not an object. Nothing of that update was merged.
 */
export class StateValidationError extends FrameworkError {
  private readonly [symbol] = true;

  /** The node whose update was refused; `"__start__"` for the graph's input. */
  declare readonly node: string;
  /** The offending key, or `undefined` when the update as a whole is not an object. */
  declare readonly key: string | undefined;
  /** What is wrong, one entry per problem. */
  declare readonly issues: readonly string[];

  constructor({
    node,
    key,
    issues,
    cause,
  }: { node: string; key?: string; issues: readonly string[]; cause?: unknown }) {
    const source =
      node === "__start__"
        ? "the graph input"
        : node === "__update__"
          ? "updateState"
          : `node "${node}"`;
    const target = key === undefined ? "the update" : `state key "${key}"`;
    super({
      name,
      message: `Invalid update from ${source} for ${target}: ${issues.join("; ")}`,
      cause,
      fields: { node, key, issues },
    });
  }

  static override isInstance(error: unknown): error is StateValidationError {
    return FrameworkError.hasMarker(error, marker);
  }
}
