import { describe, expect, it } from "vitest";
import type { ThreadState } from "../api/wire.js";
import { timeline } from "./timeline.js";

/** A checkpoint of thread `t` with its parent, as the history route answers it. */
const state = (id: string, parent: string | null): ThreadState => ({
  values: {},
  next: [],
  checkpoint: { thread_id: "t", checkpoint_id: id },
  metadata: {},
  created_at: null,
  parent_checkpoint: parent === null ? null : { thread_id: "t", checkpoint_id: parent },
  interrupts: [],
});

describe("a thread's timeline", () => {
  it("keeps one branch while each checkpoint follows the last", () => {
    const history = [state("c", "b"), state("b", "a"), state("a", null)];
    expect(timeline(history).map((point) => [point.id, point.branch])).toEqual([
      ["a", 0],
      ["b", 0],
      ["c", 0],
    ]);
  });

  it("starts a branch where a run forked from an earlier checkpoint, and continues it", () => {
    // a → b → c, then a run from a: a → d → e.
    const history = [
      state("e", "d"),
      state("d", "a"),
      state("c", "b"),
      state("b", "a"),
      state("a", null),
    ];
    expect(timeline(history).map((point) => [point.id, point.branch])).toEqual([
      ["a", 0],
      ["b", 0],
      ["c", 0],
      ["d", 1],
      ["e", 1],
    ]);
  });
});
