import { expect, it } from "vitest";
import { type ConformanceContext, collect, putThread } from "./conformance-context.js";

/** `deleteThread`: forgets one thread entirely, leaving the others. */
export function describeDeleteThread(context: ConformanceContext): void {
  it("deleteThread forgets one thread and leaves the others", async () => {
    const saver = await context.checkpointer();
    const [a, b] = [context.threadId("a"), context.threadId("b")];
    await putThread(saver, a, 3);
    await putThread(saver, b, 1);
    await saver.deleteThread(a);
    expect(await saver.getLatest(a)).toBeUndefined();
    expect(await saver.get(a, `${a}-1`)).toBeUndefined();
    expect(await collect(saver.list(a))).toEqual([]);
    expect(await saver.getLatest(b)).toBeDefined();
  });

  it("deleteThread lets the thread start again at seq 0", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("again");
    await putThread(saver, thread, 3);
    await saver.deleteThread(thread);
    await putThread(saver, thread, 1);
    expect(await collect(saver.list(thread))).toHaveLength(1);
  });

  it("deleteThread of a thread never written does nothing", async () => {
    const saver = await context.checkpointer();
    await expect(saver.deleteThread(context.threadId("missing"))).resolves.toBeUndefined();
  });
}
