import { describe, expect, it } from "vitest";
import { Gate } from "./gate.js";

describe("Gate", () => {
  it("holds whoever passes until it opens, then lets everyone through, later ones too", async () => {
    const gate = new Gate();
    let passed = false;
    const waiting = gate.pass(new AbortController().signal).then(() => {
      passed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toBe(false);
    gate.open();
    await waiting;
    expect(passed).toBe(true);
    await expect(gate.pass(new AbortController().signal)).resolves.toBeUndefined();
  });

  it("rejects a waiter with its signal's reason when the signal aborts first", async () => {
    const gate = new Gate();
    const controller = new AbortController();
    const waiting = gate.pass(controller.signal);
    controller.abort(new Error("run stopped"));
    await expect(waiting).rejects.toThrow("run stopped");
  });

  it("rejects at once when the signal has already aborted", async () => {
    const gate = new Gate();
    await expect(gate.pass(AbortSignal.abort(new Error("stopped before")))).rejects.toThrow(
      "stopped before",
    );
  });
});
