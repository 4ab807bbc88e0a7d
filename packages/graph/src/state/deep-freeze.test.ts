import { describe, expect, it } from "vitest";
import { deepFreeze } from "./deep-freeze.js";

describe("deepFreeze", () => {
  it("freezes plain objects and arrays all the way down, in place", () => {
    const value = { a: [{ b: { c: [1, 2] } }], d: Object.create(null) as object };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.a[0]?.b.c)).toBe(true);
    expect(Object.isFrozen(value.d)).toBe(true);
  });

  it("leaves dates, maps and class instances as they are", () => {
    class Box {
      items: number[] = [];
    }
    const value = { when: new Date(0), map: new Map([[1, 2]]), box: new Box() };
    deepFreeze(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.when)).toBe(false);
    expect(Object.isFrozen(value.map)).toBe(false);
    expect(Object.isFrozen(value.box)).toBe(false);
  });

  it("still walks a value someone else froze only at the top", () => {
    const inner = { x: 1 };
    const shallow = Object.freeze({ inner });
    deepFreeze(shallow);
    expect(Object.isFrozen(inner)).toBe(true);
  });
});
