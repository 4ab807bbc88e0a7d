import { FrameworkError } from "@framework/core";

const name = "StepLimitError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A run started as many node runs as its step limit allows and still had work to do. The
 * run is saved as failed, so invoking the thread again with `null` input (and, if needed, a
 * higher `stepLimit`) continues it.
 */
export class StepLimitError extends FrameworkError {
  private readonly [symbol] = true;

  declare readonly limit: number;
  /** The shared state when the run stopped, secrets redacted from its strings. */
  declare readonly state: Readonly<Record<string, unknown>>;
  /** The nodes that were about to run. */
  declare readonly next: readonly string[];

  constructor({
    limit,
    state,
    next,
  }: { limit: number; state: Readonly<Record<string, unknown>>; next: readonly string[] }) {
    super({
      name,
      message:
        `Step limit of ${limit} node runs reached before running ${next.map((n) => `"${n}"`).join(", ")}; ` +
        "a graph that loops needs a conditional edge to END, or pass a higher stepLimit",
      fields: { limit, state, next },
    });
  }

  static override isInstance(error: unknown): error is StepLimitError {
    return FrameworkError.hasMarker(error, marker);
  }
}
