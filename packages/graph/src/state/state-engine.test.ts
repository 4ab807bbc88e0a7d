import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appendReducer } from "./append-reducer.js";
import { reducer } from "./reducer.js";
import { defineState, engineOf } from "./state-definition.js";

describe("replaying a checkpoint's writes", () => {
  it("replays recorded writes to the same state", () => {
    const Transforming = defineState({
      length: z.string().transform((text) => text.length),
      log: reducer(z.array(z.string()), appendReducer, () => []),
    });
    const first = Transforming.applyUpdate(
      Transforming.initialValues(),
      { length: "four", log: "a" },
      "n",
    );
    const second = Transforming.applyUpdate(first.state, { log: ["b", "c"] }, "n");
    const engine = engineOf(Transforming);
    const draft = engine.draft(Transforming.initialValues());
    engine.replay(draft, JSON.parse(JSON.stringify(first.writes)));
    engine.replay(draft, JSON.parse(JSON.stringify(second.writes)));
    expect(engine.read(draft)).toEqual(second.state);
    expect(engine.read(draft)).toEqual({ length: 4, log: ["a", "b", "c"] });
  });
});

describe("a state draft", () => {
  const Results = engineOf(
    defineState({
      results: reducer(
        z.array(z.number().transform((value) => value * 10)),
        appendReducer,
        () => [],
      ),
      note: z.string().optional(),
    }),
  );

  it("holds appendReducer entries back until the state is read, then copies the list once", () => {
    const draft = Results.draft(Results.initialValues());
    for (let index = 0; index < 1_000; index++) {
      Results.commit(draft, Results.stage(draft, { results: index }, `f${index}`));
    }
    // The first append validated the (empty) list; the rest wait, validated, for a read.
    expect(draft.pending.get("results")).toHaveLength(999);
    const read = Results.read(draft);
    expect(read.results).toEqual(Array.from({ length: 1_000 }, (_, index) => index * 10));
    expect(Results.read(draft)).toBe(read);
    expect(Object.isFrozen(read)).toBe(true);
  });

  it("refuses a bad entry before anything is held, naming node and key", () => {
    const draft = Results.draft(Results.initialValues());
    Results.commit(draft, Results.stage(draft, { results: 1 }, "a"));
    Results.commit(draft, Results.stage(draft, { results: 2 }, "b"));
    // The issue names the entry's index in the whole list, not in the update.
    expect(() => Results.stage(draft, { results: "three" } as never, "c")).toThrow(
      /node "c" for state key "results": 2:/,
    );
    expect(Results.read(draft).results).toEqual([10, 20]);
  });

  it("shows a router the staged update and drops it when it is not committed", () => {
    const draft = Results.draft(Results.initialValues());
    Results.commit(draft, Results.stage(draft, { results: [1, 2] }, "a"));
    const staged = Results.stage(draft, { results: 3, note: "routed" }, "b");
    const seen = Results.readStaged(draft, staged);
    expect(seen).toEqual({ results: [10, 20, 30], note: "routed" });
    expect(Results.read(draft)).toEqual({ results: [10, 20] });
    Results.commit(draft, staged, seen);
    expect(Results.read(draft)).toBe(seen);
  });

  it("never changes a list a reader was given", () => {
    const draft = Results.draft(Results.initialValues());
    Results.commit(draft, Results.stage(draft, { results: 1 }, "a"));
    const given = Results.read(draft).results;
    Results.commit(draft, Results.stage(draft, { results: 2 }, "b"));
    expect(Results.read(draft).results).toEqual([10, 20]);
    expect(given).toEqual([10]);
  });
});
