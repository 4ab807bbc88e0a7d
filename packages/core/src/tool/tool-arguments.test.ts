import { describe, expect, it } from "vitest";
import { ToolArgumentsError } from "../error/tool-arguments-error.js";
import { normalizeToolArguments } from "./tool-arguments.js";

describe("normalizeToolArguments", () => {
  it("accepts an object, JSON text of one, and JSON text encoded twice", () => {
    expect(normalizeToolArguments({ a: 1 }, "t")).toEqual({ a: 1 });
    expect(normalizeToolArguments('{"a": 1}', "t")).toEqual({ a: 1 });
    expect(normalizeToolArguments(JSON.stringify('{"a": 1}'), "t")).toEqual({ a: 1 });
  });

  it("treats nothing as no arguments", () => {
    expect(normalizeToolArguments(undefined, "t")).toEqual({});
    expect(normalizeToolArguments(null, "t")).toEqual({});
    expect(normalizeToolArguments("", "t")).toEqual({});
  });

  it("rejects a plain string, saying what to send instead", () => {
    const error = (() => {
      try {
        normalizeToolArguments("AAPL", "fetch_stock_data");
      } catch (e) {
        return e;
      }
    })();
    expect(ToolArgumentsError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("JSON object of named arguments");
    expect((error as Error).message).toContain('"AAPL"');
  });

  it("rejects arrays and scalars", () => {
    expect(() => normalizeToolArguments("[1,2]", "t")).toThrow(/an array/);
    expect(() => normalizeToolArguments(42, "t")).toThrow(/number/);
  });
});
