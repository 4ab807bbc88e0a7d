import { describe, expect, it } from "vitest";
import { changedPaths } from "./json-tree.js";

describe("what changed between two checkpoints' states", () => {
  it("marks the changed leaves, what was added, and every ancestor of one", () => {
    const before = { messages: [{ content: "hi" }], draft: "a", kept: 1 };
    const after = { messages: [{ content: "hi" }, { content: "yo" }], draft: "b", kept: 1 };
    expect([...changedPaths(before, after)].sort()).toEqual([
      "",
      "draft",
      "messages",
      "messages.1",
    ]);
  });

  it("marks nothing when nothing changed", () => {
    expect(changedPaths({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }).size).toBe(0);
  });
});
