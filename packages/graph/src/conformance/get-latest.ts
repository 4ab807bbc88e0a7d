import { expect, it } from "vitest";
import { type ConformanceContext, checkpointAt } from "./conformance-context.js";

/** `getLatest`: nothing for an unknown thread, else the newest checkpoint exactly as put. */
export function describeGetLatest(context: ConformanceContext): void {
  it("getLatest knows nothing of a thread never written", async () => {
    const saver = await context.checkpointer();
    expect(await saver.getLatest(context.threadId("missing"))).toBeUndefined();
  });

  it("getLatest returns the newest checkpoint exactly as it was put", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("latest");
    await saver.put(checkpointAt(thread, 0));
    const second = checkpointAt(thread, 1, { note: "second" });
    await saver.put(second);
    const latest = await saver.getLatest(thread);
    expect(latest).toStrictEqual(second);
    expect(JSON.stringify(latest)).toBe(JSON.stringify(second));
  });

  it("getLatest keeps threads apart", async () => {
    const saver = await context.checkpointer();
    const [a, b] = [context.threadId("a"), context.threadId("b")];
    await saver.put(checkpointAt(a, 0, { owner: "a" }));
    await saver.put(checkpointAt(b, 0, { owner: "b" }));
    await saver.put(checkpointAt(b, 1, { owner: "b" }));
    expect((await saver.getLatest(a))?.writes).toEqual({ owner: "a" });
    expect((await saver.getLatest(b))?.seq).toBe(1);
  });
}
