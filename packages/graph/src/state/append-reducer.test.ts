import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appendReducer } from "./append-reducer.js";
import { reducer } from "./reducer.js";
import { defineState } from "./state-definition.js";

describe("appendReducer", () => {
  it("appends one entry", () => {
    expect(appendReducer([{ role: "user" }], { role: "assistant" })).toEqual([
      { role: "user" },
      { role: "assistant" },
    ]);
  });

  it("appends every entry of a list", () => {
    expect(appendReducer(["a"], ["b", "c"])).toEqual(["a", "b", "c"]);
  });

  it("returns a new list and leaves the current one alone", () => {
    const current = Object.freeze(["a"]);
    const next = appendReducer(current, "b");
    expect(next).not.toBe(current);
    expect(current).toEqual(["a"]);
  });

  it("serves as a state reducer taking one message or a list", () => {
    const Message = z.object({ role: z.string(), content: z.string() });
    const Chat = defineState({ messages: reducer(z.array(Message), appendReducer, () => []) });
    const one = Chat.applyUpdate(
      Chat.initialValues(),
      { messages: { role: "user", content: "hi" } },
      "input",
    );
    const many = Chat.applyUpdate(
      one.state,
      {
        messages: [
          { role: "MarketDataProvider", content: "up" },
          { role: "CryptoTracker", content: "down" },
        ],
      },
      "nodes",
    );
    expect(many.state.messages).toEqual([
      { role: "user", content: "hi" },
      { role: "MarketDataProvider", content: "up" },
      { role: "CryptoTracker", content: "down" },
    ]);
  });
});
