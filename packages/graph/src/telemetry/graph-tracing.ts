import { recordSpanError } from "@framework/core";
import { type Context, context, type Span, trace } from "@opentelemetry/api";
import { NodeInterrupt } from "../error/node-interrupt.js";

/** The instrumentation scope of every span this package starts. */
export const GRAPH_TRACER_NAME = "@framework/graph";

/** Attribute names of graph spans. */
export const GraphAttribute = {
  threadId: "graph.thread_id",
  runId: "graph.run_id",
  nodeName: "graph.node.name",
  step: "graph.node.step",
  visit: "graph.node.visit",
  /** Set on a node span whose node paused the run with `context.interrupt`. */
  interrupted: "graph.node.interrupted",
} as const;

/**
 * The spans of one graph run: a `graph_run` span from the run's creation until it settles, and
 * a `graph_node <name>` child per node run. Each node runs inside its own span's context, so
 * what it calls (an agent's `invoke_agent` span, say) nests under the node even while sibling
 * branches run concurrently. The parent of the run span is the context the run was created in.
 */
export class GraphRunTrace {
  readonly #span: Span;
  readonly #context: Context;

  constructor(run: { threadId: string; runId: string }) {
    const parent = context.active();
    this.#span = trace.getTracer(GRAPH_TRACER_NAME).startSpan(
      "graph_run",
      {
        attributes: {
          [GraphAttribute.threadId]: run.threadId,
          [GraphAttribute.runId]: run.runId,
        },
      },
      parent,
    );
    this.#context = trace.setSpan(parent, this.#span);
  }

  /** Runs one node inside its `graph_node` span, a child of the run span. */
  node<T>(
    name: string,
    at: { step: number; visit: number },
    run: () => T | Promise<T>,
  ): Promise<T> {
    const attributes = {
      [GraphAttribute.nodeName]: name,
      [GraphAttribute.step]: at.step,
      [GraphAttribute.visit]: at.visit,
    };
    const tracer = trace.getTracer(GRAPH_TRACER_NAME);
    return tracer.startActiveSpan(
      `graph_node ${name}`,
      { attributes },
      this.#context,
      async (span) => {
        try {
          return await run();
        } catch (error) {
          // A pause for a person's answer is how the node asks, not a failure.
          if (NodeInterrupt.isInstance(error)) span.setAttribute(GraphAttribute.interrupted, true);
          else recordSpanError(span, error);
          throw error;
        } finally {
          span.end();
        }
      },
    );
  }

  /** Ends the run span when `outcome` settles, marked failed if it rejects. */
  endWith(outcome: Promise<unknown>): void {
    outcome.then(
      () => this.#span.end(),
      (error: unknown) => {
        recordSpanError(this.#span, error);
        this.#span.end();
      },
    );
  }
}
