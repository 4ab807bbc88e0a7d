import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { StateValidationError } from "../error/state-validation-error.js";
import { reducer } from "./reducer.js";
import { defineState, type StateOf, type UpdateOf } from "./state-definition.js";

const Message = z.object({ role: z.string(), content: z.string() });
const TradingState = defineState({
  messages: reducer(
    z.array(Message),
    (current, update) => current.concat(update),
    () => [],
  ),
  equity_insight: z.string().optional(),
  revision_number: z.number().int().default(1),
  task: z.string(),
});
type TradingState = StateOf<typeof TradingState>;
type TradingUpdate = UpdateOf<typeof TradingState>;

describe("defineState", () => {
  it("infers the state and update types", () => {
    expectTypeOf<TradingState["messages"]>().toEqualTypeOf<{ role: string; content: string }[]>();
    expectTypeOf<TradingState["equity_insight"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<TradingState["revision_number"]>().toEqualTypeOf<number>();
    // No default: absent until written.
    expectTypeOf<TradingState["task"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<TradingUpdate["messages"]>().toEqualTypeOf<
      { role: string; content: string } | { role: string; content: string }[] | undefined
    >();
    expectTypeOf<TradingUpdate["revision_number"]>().toEqualTypeOf<number | undefined>();
  });

  it("starts from reducer defaults and schema defaults", () => {
    expect(TradingState.initialValues()).toEqual({ messages: [], revision_number: 1 });
  });

  it("merges last-value keys and folds reducer keys, leaving the previous state intact", () => {
    const before = TradingState.initialValues();
    const { state, writes } = TradingState.applyUpdate(
      before,
      { equity_insight: "bullish", messages: { role: "user", content: "hi" } },
      "market",
    );
    expect(state).toEqual({
      messages: [{ role: "user", content: "hi" }],
      equity_insight: "bullish",
      revision_number: 1,
    });
    expect(writes).toEqual({
      equity_insight: "bullish",
      messages: { role: "user", content: "hi" },
    });
    expect(before).toEqual({ messages: [], revision_number: 1 });
    expect(Object.isFrozen(state)).toBe(true);
  });

  it("treats an undefined value and an empty update as nothing written", () => {
    const before = TradingState.initialValues();
    expect(TradingState.applyUpdate(before, { task: undefined }, "n").writes).toEqual({});
    expect(TradingState.applyUpdate(before, undefined, "n").state).toBe(before);
  });

  it("names the node and the key of an update that fails the schema", () => {
    const attempt = () =>
      TradingState.applyUpdate(
        TradingState.initialValues(),
        { revision_number: "two" },
        "generate",
      );
    expect(attempt).toThrow(StateValidationError);
    try {
      attempt();
    } catch (error) {
      expect(StateValidationError.isInstance(error)).toBe(true);
      const refused = error as StateValidationError;
      expect(refused.node).toBe("generate");
      expect(refused.key).toBe("revision_number");
      expect(refused.message).toMatch(/node "generate".*"revision_number"/);
    }
  });

  it("names the node and the key of a reducer update that fails the schema", () => {
    const attempt = () =>
      TradingState.applyUpdate(
        TradingState.initialValues(),
        { messages: { role: "user" } } as never,
        "crypto",
      );
    expect(attempt).toThrow(/node "crypto" for state key "messages": 0\.content/);
  });

  it("refuses keys outside the state and updates that are not objects", () => {
    const initial = TradingState.initialValues();
    expect(() => TradingState.applyUpdate(initial, { nope: 1 }, "n")).toThrow(
      /node "n" for state key "nope": not a key/,
    );
    expect(() => TradingState.applyUpdate(initial, ["x"], "n")).toThrow(/got an array/);
    expect(() => TradingState.applyUpdate(initial, "x", "n")).toThrow(/got string/);
  });

  it("reports a reducer that throws as a refused update", () => {
    const Fragile = defineState({
      total: reducer(
        z.number(),
        (current, update: number) => {
          if (update < 0) throw new Error("negative");
          return current + update;
        },
        () => 0,
      ),
    });
    expect(() => Fragile.applyUpdate(Fragile.initialValues(), { total: -1 }, "adder")).toThrow(
      /node "adder" for state key "total": reducer threw: negative/,
    );
  });

  it("rejects a shape entry that is neither a schema nor a reducer", () => {
    expect(() => defineState({ bad: 42 as never })).toThrow(/"bad" must be a zod schema/);
  });
});
