import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { CheckpointConflictError } from "../error/checkpoint-conflict-error.js";
import { NodeExecutionError } from "../error/node-execution-error.js";
import { END, START } from "../graph/endpoints.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState } from "../state/state-definition.js";
import type { Checkpoint } from "./checkpoint.js";
import type { Checkpointer } from "./checkpointer.js";

/** Options of {@link runCheckpointerConformance}. */
export interface ConformanceOptions<C extends Checkpointer> {
  /** Releases what a saver holds (a database connection) after each test. */
  dispose?: (saver: C) => void | Promise<void>;
}

function checkpointAt(
  threadId: string,
  seq: number,
  writes: Record<string, unknown> = {},
): Checkpoint {
  return {
    version: 1,
    threadId,
    id: `${threadId}-${seq}`,
    parentId: seq === 0 ? null : `${threadId}-${seq - 1}`,
    seq,
    runId: "run-1",
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, seq)).toISOString(),
    source: seq === 0 ? "input" : "node",
    ...(seq === 0 ? { base: { items: [] } } : { node: "worker" }),
    writes,
    frontier: { pending: ["worker"], running: [], visits: { worker: seq } },
    status: "running",
    metadata: { user_id: "u1" },
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Registers vitest tests that any {@link Checkpointer} must pass: ordering, isolation of
 * threads and of returned copies, exact JSON round trips, refusal of stale writes, deletion,
 * and a graph run that fails, resumes and reports its state through the saver.
 *
 * @example
 * runCheckpointerConformance("SqliteSaver", () => new SqliteSaver(":memory:"));
 */
export function runCheckpointerConformance<C extends Checkpointer>(
  name: string,
  createSaver: () => C | Promise<C>,
  options: ConformanceOptions<C> = {},
): void {
  describe(`${name} checkpointer conformance`, () => {
    const created: C[] = [];
    const fresh = async (): Promise<C> => {
      const saver = await createSaver();
      created.push(saver);
      return saver;
    };
    afterEach(async () => {
      for (const saver of created.splice(0)) await options.dispose?.(saver);
    });

    it("knows nothing of a thread never written", async () => {
      const saver = await fresh();
      expect(await saver.getLatest("missing")).toBeUndefined();
      expect(await collect(saver.list("missing"))).toEqual([]);
    });

    it("returns the newest checkpoint exactly as it was put", async () => {
      const saver = await fresh();
      await saver.put(checkpointAt("t", 0));
      const second = checkpointAt("t", 1, { note: "second" });
      await saver.put(second);
      expect(await saver.getLatest("t")).toEqual(second);
    });

    it("lists newest first, honouring limit and beforeSeq", async () => {
      const saver = await fresh();
      for (let seq = 0; seq < 5; seq++) await saver.put(checkpointAt("t", seq));
      const seqs = (list: Checkpoint[]) => list.map((checkpoint) => checkpoint.seq);
      expect(seqs(await collect(saver.list("t")))).toEqual([4, 3, 2, 1, 0]);
      expect(seqs(await collect(saver.list("t", { limit: 2 })))).toEqual([4, 3]);
      expect(seqs(await collect(saver.list("t", { beforeSeq: 3 })))).toEqual([2, 1, 0]);
      expect(seqs(await collect(saver.list("t", { beforeSeq: 3, limit: 1 })))).toEqual([2]);
    });

    it("keeps threads apart", async () => {
      const saver = await fresh();
      await saver.put(checkpointAt("a", 0, { owner: "a" }));
      await saver.put(checkpointAt("b", 0, { owner: "b" }));
      await saver.put(checkpointAt("b", 1, { owner: "b" }));
      expect((await saver.getLatest("a"))?.writes).toEqual({ owner: "a" });
      expect(await collect(saver.list("a"))).toHaveLength(1);
      expect(await collect(saver.list("b"))).toHaveLength(2);
    });

    it("refuses a seq that is not above the thread's newest", async () => {
      const saver = await fresh();
      await saver.put(checkpointAt("t", 0));
      await saver.put(checkpointAt("t", 1));
      const stale = saver.put(checkpointAt("t", 1, { late: true }));
      await expect(stale).rejects.toSatisfy(CheckpointConflictError.isInstance);
      expect((await saver.getLatest("t"))?.writes).toEqual({});
    });

    it("hands out copies that do not alias what it stores", async () => {
      const saver = await fresh();
      const original = checkpointAt("t", 0, { list: [1, 2] });
      await saver.put(original);
      (original.writes.list as number[]).push(3);
      const read = await saver.getLatest("t");
      (read!.writes.list as number[]).push(4);
      expect((await saver.getLatest("t"))?.writes).toEqual({ list: [1, 2] });
    });

    it("round-trips JSON values exactly", async () => {
      const saver = await fresh();
      const writes = {
        text: 'naïve café — 東京 \u{1F680} "quoted" \\ back\nslash',
        numbers: [0, -1.5, 1e21, Number.MAX_SAFE_INTEGER],
        nested: { deep: { deeper: [null, true, false, { empty: {} }] } },
        large: "x".repeat(200_000),
      };
      await saver.put(checkpointAt("t", 0, writes));
      expect((await saver.getLatest("t"))?.writes).toEqual(writes);
    });

    it("deletes one thread and leaves the others", async () => {
      const saver = await fresh();
      await saver.put(checkpointAt("a", 0));
      await saver.put(checkpointAt("b", 0));
      await saver.deleteThread("a");
      expect(await saver.getLatest("a")).toBeUndefined();
      expect(await saver.getLatest("b")).toBeDefined();
      await saver.put(checkpointAt("a", 0));
      expect(await collect(saver.list("a"))).toHaveLength(1);
    });

    it("lets a graph fail, resume without re-running finished nodes, and report its state", async () => {
      const saver = await fresh();
      const State = defineState({
        log: reducer(z.array(z.string()), appendReducer, () => []),
        result: z.string().optional(),
      });
      const runs: string[] = [];
      let failNext = true;
      const graph = new FlowStateGraph(State)
        .addNode("first", () => {
          runs.push("first");
          return { log: "first" };
        })
        .addNode("second", () => {
          runs.push("second");
          if (failNext) {
            failNext = false;
            throw new Error("transient");
          }
          return { log: "second", result: "ok" };
        })
        .addEdge(START, "first")
        .addEdge("first", "second")
        .addEdge("second", END);
      const app = graph.compile({ checkpointer: saver });
      const config = { configurable: { thread_id: "conformance" } };

      await expect(app.invoke({ log: "input" }, config)).rejects.toSatisfy(
        NodeExecutionError.isInstance,
      );
      const failed = await app.getState(config);
      expect(failed.status).toBe("failed");
      expect(failed.next).toEqual(["second"]);

      const final = await app.invoke(null, config);
      expect(runs).toEqual(["first", "second", "second"]);
      expect(final).toEqual({ log: ["input", "first", "second"], result: "ok" });
      expect((await app.getState(config)).status).toBe("done");
      const history = await collect(app.getStateHistory(config));
      expect(history[0]?.values).toEqual(final);
      expect(history.at(-1)?.values).toEqual({ log: ["input"] });
    });
  });
}
