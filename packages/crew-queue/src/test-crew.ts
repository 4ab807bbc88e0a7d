import type { PostgresSaver } from "@framework/checkpoint-postgres";
import { internalsOf } from "@framework/checkpoint-postgres/internal";
import { silentLogger } from "@framework/core";
import {
  appendReducer,
  type Checkpointer,
  defineState,
  END,
  FlowStateGraph,
  type NodeContext,
  reducer,
  START,
} from "@framework/graph";
import { z } from "zod";
import type { CrewFactory } from "./crew-factory.js";

/** The test crew's state: the question, each node's answer, and the order nodes ended in. */
export const TestState = defineState({
  messages: reducer(z.array(z.unknown()), appendReducer, () => []),
  log: reducer(z.array(z.string()), appendReducer, () => []),
  a: z.string().optional(),
  b: z.string().optional(),
  c: z.string().optional(),
});

/** Runs inside a node before it answers: to hold it, fail it, or wait for its signal. */
export type NodeHook = (context: NodeContext) => Promise<void> | void;

/** Options of {@link testCrew}. */
export interface TestCrewOptions {
  /** Where the nodes record their side effects (`effects` in its schema). */
  saver: PostgresSaver;
  /** Recorded with each side effect. */
  worker: string;
  hooks?: Partial<Record<"a" | "b" | "c", NodeHook>>;
}

function questionOf(messages: readonly unknown[]): string {
  const first = messages.at(-1) as { content?: unknown } | undefined;
  return String(first?.content ?? "");
}

/**
 * A crew of three nodes `a -> b -> c` whose final state depends only on the question, each
 * node recording one side effect (with its idempotency key) per run of it.
 */
export function testCrew(options: TestCrewOptions): CrewFactory {
  const { saver, worker, hooks = {} } = options;
  const step =
    (name: "a" | "b" | "c", answer: (state: Record<string, unknown>) => string) =>
    async (state: Record<string, unknown>, context: NodeContext) => {
      await internalsOf(saver).query(
        "effect",
        `INSERT INTO "${saver.schema}".effects (key, node, run_id, worker) VALUES ($1, $2, $3, $4)`,
        [context.idempotencyKey, name, String(context.config.configurable?.run_id), worker],
      );
      await hooks[name]?.(context);
      return { [name]: answer(state), log: name };
    };
  return ({ checkpointer }: { checkpointer: Checkpointer }) =>
    new FlowStateGraph(TestState)
      .addNode(
        "a",
        step("a", (state) => `A(${questionOf(state.messages as unknown[])})`),
      )
      .addNode(
        "b",
        step("b", (state) => `B(${String(state.a)})`),
      )
      .addNode(
        "c",
        step("c", (state) => `C(${String(state.b)})`),
      )
      .addFlow([START.to("a").to("b").to("c").to(END)])
      .compile({ checkpointer, logger: silentLogger }) as never;
}

/** The final state a run of the test crew on a fresh thread has, for `query`. */
export function expectedState(query: string) {
  return {
    a: `A(${query})`,
    b: `B(A(${query}))`,
    c: `C(B(A(${query})))`,
    log: ["a", "b", "c"],
  };
}
