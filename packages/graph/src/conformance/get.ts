import { expect, it } from "vitest";
import { type ConformanceContext, checkpointAt, putThread } from "./conformance-context.js";

/** `get`: one checkpoint by id, within its thread only. */
export function describeGet(context: ConformanceContext): void {
  it("get finds any checkpoint of a thread by id", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("get");
    await putThread(saver, thread, 5);
    expect(await saver.get(thread, `${thread}-2`)).toStrictEqual(checkpointAt(thread, 2));
    expect(await saver.get(thread, `${thread}-0`)).toStrictEqual(checkpointAt(thread, 0));
  });

  it("get returns nothing for an unknown id or another thread's id", async () => {
    const saver = await context.checkpointer();
    const [a, b] = [context.threadId("a"), context.threadId("b")];
    await putThread(saver, a, 2);
    await putThread(saver, b, 1);
    expect(await saver.get(a, "no-such-id")).toBeUndefined();
    expect(await saver.get(b, `${a}-1`)).toBeUndefined();
    expect(await saver.get(context.threadId("missing"), `${a}-0`)).toBeUndefined();
  });
}
