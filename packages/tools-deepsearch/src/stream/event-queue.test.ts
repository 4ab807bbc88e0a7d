import { describe, expect, it } from "vitest";
import { EventQueue } from "./event-queue.js";

async function drain<T>(queue: EventQueue<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of queue) values.push(value);
  return values;
}

describe("EventQueue", () => {
  it("hands over values pushed before and while reading, then ends on close", async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    const reading = drain(queue);
    await Promise.resolve();
    queue.push(2);
    queue.close();
    queue.push(3);
    await expect(reading).resolves.toEqual([1, 2]);
  });

  it("throws the closing failure after the buffered values", async () => {
    const queue = new EventQueue<string>();
    const seen: string[] = [];
    queue.push("a");
    queue.close({ error: new Error("boom") });
    await expect(
      (async () => {
        for await (const value of queue) seen.push(value);
      })(),
    ).rejects.toThrow("boom");
    expect(seen).toEqual(["a"]);
  });
});
