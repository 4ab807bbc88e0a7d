import { describe, expect, it } from "vitest";
import { Condition } from "./condition.js";

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("Condition", () => {
  it("settles at once when the test already holds", async () => {
    expect(await settled(new Condition().waitFor(() => true))).toBe(true);
  });

  it("checks again at each notifyAll, and settles at the first after which the test holds", async () => {
    const condition = new Condition();
    let count = 0;
    const reachedTwo = condition.waitFor(() => count >= 2);
    count = 2;
    expect(await settled(reachedTwo)).toBe(false);
    count = 1;
    condition.notifyAll();
    expect(await settled(reachedTwo)).toBe(false);
    count = 2;
    condition.notifyAll();
    expect(await settled(reachedTwo)).toBe(true);
  });

  it("wakes every waiter whose test holds, and leaves the others waiting", async () => {
    const condition = new Condition();
    let count = 0;
    const one = condition.waitFor(() => count >= 1);
    const three = condition.waitFor(() => count >= 3);
    count = 1;
    condition.notifyAll();
    expect([await settled(one), await settled(three)]).toEqual([true, false]);
    count = 3;
    condition.notifyAll();
    expect(await settled(three)).toBe(true);
  });
});
