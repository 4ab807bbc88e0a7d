import { describe, expect, it } from "vitest";
import { checkpointAt } from "../conformance/conformance-context.js";
import { runCheckpointerConformance } from "../conformance/run-checkpointer-conformance.js";
import { MemorySaver } from "./memory-saver.js";

runCheckpointerConformance({ name: "MemorySaver", createCheckpointer: () => new MemorySaver() });

describe("MemorySaver.storedBytes", () => {
  it("counts the JSON bytes held per thread and in total, and per checkpoint", async () => {
    const saver = new MemorySaver();
    const checkpoint = checkpointAt("t", 0, { text: "é" });
    await saver.put(checkpoint);
    await saver.put({ ...checkpoint, threadId: "u" });
    const one = Buffer.byteLength(JSON.stringify(checkpoint));
    expect(saver.storedBytes("t")).toBe(one);
    expect(saver.storedBytes()).toBeGreaterThan(one);
    expect(saver.storedBytes("none")).toBe(0);
    expect(saver.checkpointBytes("t")).toEqual([one]);
  });
});
