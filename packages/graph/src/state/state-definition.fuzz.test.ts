import { ReliabilityTally } from "@framework/testing";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { StateValidationError } from "../error/state-validation-error.js";
import { appendReducer } from "./append-reducer.js";
import { reducer } from "./reducer.js";
import { type AppliedUpdate, defineState, engineOf } from "./state-definition.js";
import type { StagedUpdate, StateRecord } from "./state-engine.js";

// Property-based checks of how node updates are merged into the shared state: whatever a node
// returns, the update is merged or refused with a StateValidationError, the previous state is
// never changed, and replaying the recorded writes (as a checkpoint stores them, in JSON)
// rebuilds exactly the same state.
const tally = new ReliabilityTally("fuzz-graph-state");
afterAll(() => tally.flush());

const numRuns = 300;

const Message = z.object({ role: z.string(), content: z.string() });
const State = defineState({
  messages: reducer(z.array(Message), appendReducer, () => []),
  total: reducer(
    z.number().int(),
    (current: number, update: number) => current + update,
    () => 0,
  ),
  note: z.string().optional(),
  score: z.number().min(0).max(1).default(0.5),
  tags: z.array(z.string()).optional(),
});
const engine = engineOf(State);

const message = fc.record({ role: fc.string(), content: fc.string() });
// Updates shaped like the state's, each key sometimes right and sometimes anything at all,
// plus keys the state does not have.
const update = fc.oneof(
  fc.record(
    {
      messages: fc.oneof(message, fc.array(message, { maxLength: 3 }), fc.anything()),
      total: fc.oneof(fc.integer({ min: -1_000, max: 1_000 }), fc.anything()),
      note: fc.oneof(fc.string(), fc.anything()),
      score: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.anything()),
      tags: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.anything()),
      unknown_key: fc.anything(),
    },
    { requiredKeys: [] },
  ),
  fc.anything({ maxDepth: 3, withBigInt: true, withMap: true, withSet: true, withDate: true }),
);

const json = (value: unknown) => JSON.stringify(value);

/** Applies `value` and checks the outcome; returns it when the update was merged. */
function applyChecked(current: StateRecord, value: unknown): AppliedUpdate | undefined {
  const before = json(current);
  let applied: ReturnType<typeof State.applyUpdate>;
  try {
    applied = State.applyUpdate(current, value, "fuzzer");
  } catch (error) {
    expect(StateValidationError.isInstance(error), String(error)).toBe(true);
    expect((error as StateValidationError).node).toBe("fuzzer");
    expect(json(current)).toBe(before);
    return undefined;
  }
  expect(json(current)).toBe(before);
  expect(Object.isFrozen(applied.state)).toBe(true);
  expect(Array.isArray(applied.state.messages)).toBe(true);
  expect(Number.isInteger(applied.state.total)).toBe(true);
  return applied;
}

describe("state updates (fuzzed)", () => {
  it("merges or refuses any update with a StateValidationError, leaving the state as it was", () => {
    fc.assert(
      fc.property(update, (value) => {
        applyChecked(State.initialValues(), value);
      }),
      { numRuns },
    );
    tally.fuzzed(numRuns);
  });

  it("rebuilds the same state from a run's writes replayed from JSON, as resuming does", () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 8 }), (updates) => {
        let state = State.initialValues();
        const checkpoints: StateRecord[] = [];
        for (const value of updates) {
          const applied = applyChecked(state, value);
          if (applied === undefined) continue;
          state = applied.state;
          checkpoints.push(JSON.parse(json(applied.writes)));
        }
        const replayed = engine.draft(State.initialValues());
        for (const writes of checkpoints) engine.replay(replayed, writes);
        expect(json(engine.read(replayed))).toBe(json(state));
      }),
      { numRuns },
    );
    tally.fuzzed(numRuns);
  });

  it("gives a run's draft the states one-by-one merging gives, whatever reads, routes and drops interleave", () => {
    // Mostly updates that merge, so lists grow across many held-back appends.
    const merging = fc.record(
      {
        messages: fc.oneof(message, fc.array(message, { maxLength: 3 })),
        total: fc.integer({ min: -1_000, max: 1_000 }),
        note: fc.string(),
      },
      { requiredKeys: [] },
    );
    const step = fc.record({
      value: fc.oneof({ arbitrary: merging, weight: 4 }, { arbitrary: update, weight: 1 }),
      // How the run handles this update: merged, merged after a router read it, or dropped
      // (a router threw, or a write conflicted) after being staged or read.
      how: fc.constantFrom("commit", "route", "drop", "route-drop"),
      readAfter: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        let expected = State.initialValues();
        const draft = engine.draft(expected);
        const given: { list: unknown; text: string }[] = [];
        for (const { value, how, readAfter } of steps) {
          let staged: StagedUpdate;
          try {
            staged = engine.stage(draft, value, "fuzzer");
          } catch (error) {
            expect(StateValidationError.isInstance(error), String(error)).toBe(true);
            expect(() => State.applyUpdate(expected, value, "fuzzer")).toThrow();
            continue;
          }
          const reference = State.applyUpdate(expected, value, "fuzzer");
          expect(json(staged.writes)).toBe(json(reference.writes));
          const routed = how.startsWith("route") ? engine.readStaged(draft, staged) : undefined;
          if (routed) expect(json(routed)).toBe(json(reference.state));
          if (how === "commit" || how === "route") {
            engine.commit(draft, staged, routed);
            expected = reference.state;
          }
          if (readAfter) {
            const read = engine.read(draft);
            expect(json(read)).toBe(json(expected));
            given.push({ list: read.messages, text: json(read.messages) });
          }
        }
        expect(json(engine.read(draft))).toBe(json(expected));
        for (const { list, text } of given) expect(json(list)).toBe(text);
      }),
      { numRuns },
    );
    tally.fuzzed(numRuns);
  });

  it("appends without changing the list it was given", () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), fc.anything(), (current, entry) => {
        const frozen = Object.freeze([...current]);
        const next = appendReducer(frozen, entry);
        expect(next).not.toBe(frozen);
        expect(next.length).toBe(frozen.length + (Array.isArray(entry) ? entry.length : 1));
        expect(next.slice(0, frozen.length)).toEqual(frozen);
      }),
      { numRuns },
    );
    tally.fuzzed(numRuns);
  });
});
