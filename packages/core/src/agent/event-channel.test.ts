import { describe, expect, it } from "vitest";
import { EventChannel } from "./event-channel.js";

describe("EventChannel", () => {
  it("delivers values pushed before and while reading, then ends", async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    const read = (async () => {
      const seen: number[] = [];
      for await (const value of channel) seen.push(value);
      return seen;
    })();
    channel.push(2);
    await Promise.resolve();
    channel.push(3);
    channel.close();
    channel.push(4);
    expect(await read).toEqual([1, 2, 3]);
  });

  it("throws the closing error after the buffered values", async () => {
    const channel = new EventChannel<string>();
    channel.push("a");
    channel.close({ error: new Error("boom") });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const value of channel) seen.push(value);
      })(),
    ).rejects.toThrow("boom");
    expect(seen).toEqual(["a"]);
  });
});
