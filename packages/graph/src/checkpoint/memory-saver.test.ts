import { describe, expect, it } from "vitest";
import { runCheckpointerConformance } from "./checkpointer-conformance.js";
import { MemorySaver } from "./memory-saver.js";

runCheckpointerConformance("MemorySaver", () => new MemorySaver());

describe("MemorySaver.storedBytes", () => {
  it("counts the JSON bytes held per thread and in total", async () => {
    const saver = new MemorySaver();
    const checkpoint = {
      version: 1 as const,
      threadId: "t",
      id: "1",
      parentId: null,
      seq: 0,
      runId: "r",
      createdAt: "2025-01-01T00:00:00.000Z",
      source: "input" as const,
      writes: { text: "é" },
      frontier: { pending: [], running: [], visits: {} },
      status: "done" as const,
      metadata: {},
    };
    await saver.put(checkpoint);
    await saver.put({ ...checkpoint, threadId: "u" });
    const one = Buffer.byteLength(JSON.stringify(checkpoint));
    expect(saver.storedBytes("t")).toBe(one);
    expect(saver.storedBytes()).toBeGreaterThan(one);
    expect(saver.storedBytes("none")).toBe(0);
  });
});
