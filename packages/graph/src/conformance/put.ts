import { expect, it } from "vitest";
import type { Checkpoint } from "../checkpoint/checkpoint.js";
import { CheckpointConflictError } from "../error/checkpoint-conflict-error.js";
import { type ConformanceContext, checkpointAt, putThread } from "./conformance-context.js";

const isConflict = CheckpointConflictError.isInstance;

/** Values of every JSON type, and text a database might mangle: NUL, quotes, astral planes. */
const awkwardValues = {
  text: 'naïve café — 東京 \u{1F680} "quoted" \\ back\nslash\ttab',
  nul: "before\u0000after\u0000",
  control: "\u0001\u001f\u007f\u2028\u2029",
  empty: "",
  integers: [0, -1, 42, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER],
  floats: [-1.5, 0.1, 1e21, 1e-7, 5e-324, 1.7976931348623157e308],
  booleans: [true, false],
  nothing: null,
  emptyArray: [],
  emptyObject: {},
  nested: { deep: { deeper: [null, true, false, { empty: {} }, [[]]] } },
  large: "x".repeat(200_000),
};

/** Keys in an order neither alphabetical nor by length, at several depths. */
const orderedKeys = {
  zebra: 1,
  apple: { yak: 1, "b-key": 2, aardvark: 3 },
  mango: [{ second: 2, first: 1 }],
  "key with spaces": true,
  Älpha: "non-ASCII key",
};

/** `put`: appends at the newest seq + 1, atomically, storing exactly what it was given. */
export function describePut(context: ConformanceContext): void {
  it("put starts a thread at seq 0 and refuses to leave a gap", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("gap");
    const early = saver.put(checkpointAt(thread, 1));
    await expect(early).rejects.toSatisfy(
      (error: unknown) => isConflict(error) && error.latestSeq === -1 && error.seq === 1,
    );
    await putThread(saver, thread, 2);
    await expect(saver.put(checkpointAt(thread, 3))).rejects.toSatisfy(isConflict);
    expect((await saver.getLatest(thread))?.seq).toBe(1);
  });

  it("put refuses a seq at or below the thread's newest, keeping what is stored", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("stale");
    await putThread(saver, thread, 2);
    const stale = saver.put(checkpointAt(thread, 1, { late: true }));
    await expect(stale).rejects.toSatisfy(
      (error: unknown) => isConflict(error) && error.latestSeq === 1,
    );
    await expect(saver.put(checkpointAt(thread, 0))).rejects.toSatisfy(isConflict);
    expect((await saver.getLatest(thread))?.writes).toEqual({});
    expect((await saver.get(thread, `${thread}-1`))?.writes).toEqual({});
  });

  it("put lets exactly one of two clients racing for the same seq win", async () => {
    const first = await context.checkpointer();
    const second = await context.secondClient(first);
    const thread = context.threadId("race");
    await putThread(first, thread, 3);
    for (let seq = 3; seq < 8; seq++) {
      const outcomes = await Promise.allSettled([
        first.put(checkpointAt(thread, seq, { writer: "first" })),
        second.put(checkpointAt(thread, seq, { writer: "second" })),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
      const lost = outcomes.filter((outcome) => outcome.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(isConflict((lost[0] as PromiseRejectedResult).reason)).toBe(true);
      const winner = outcomes[0]!.status === "fulfilled" ? "first" : "second";
      expect((await second.getLatest(thread))?.writes).toEqual({ writer: winner });
      expect((await first.getLatest(thread))?.seq).toBe(seq);
    }
  });

  it("put stores a copy: later changes to the object or to what was read do not leak", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("alias");
    const original = checkpointAt(thread, 0, { list: [1, 2] });
    await saver.put(original);
    (original.writes.list as number[]).push(3);
    const read = await saver.getLatest(thread);
    (read!.writes.list as number[]).push(4);
    expect((await saver.getLatest(thread))?.writes).toEqual({ list: [1, 2] });
  });

  it("put round-trips every JSON type, NUL characters included, exactly", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("json");
    const checkpoint = checkpointAt(thread, 0, awkwardValues);
    await saver.put(checkpoint);
    const read = await saver.getLatest(thread);
    expect(read?.writes).toStrictEqual(awkwardValues);
    expect(JSON.stringify(read)).toBe(JSON.stringify(checkpoint));
  });

  it("put preserves the order of keys at every depth", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("order");
    const checkpoint: Checkpoint = {
      ...checkpointAt(thread, 0, orderedKeys),
      metadata: { zulu: 1, alpha: 2 },
    };
    await saver.put(checkpoint);
    const read = await saver.getLatest(thread);
    expect(JSON.stringify(read)).toBe(JSON.stringify(checkpoint));
    expect(Object.keys(read!.writes)).toEqual(Object.keys(orderedKeys));
  });

  it("put keeps snapshot records, with their full state and frontier", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("snapshot");
    await putThread(saver, thread, 2);
    const snapshot: Checkpoint = {
      ...checkpointAt(thread, 2, { count: 2 }),
      snapshotSeq: 2,
      snapshotBytes: 560,
      bytesSinceSnapshot: 0,
      snapshot: {
        values: { items: ["a", "b"], count: 2, note: "\u0000" },
        frontier: { pending: ["b", "a"], running: ["c"], visits: { c: 3, a: 1 } },
      },
    };
    await saver.put(snapshot);
    expect(await saver.getLatest(thread)).toStrictEqual(snapshot);
    expect(await saver.get(thread, snapshot.id)).toStrictEqual(snapshot);
  });
}
