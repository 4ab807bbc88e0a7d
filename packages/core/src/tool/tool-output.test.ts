import { describe, expect, it } from "vitest";
import { capText, renderToolOutput } from "./tool-output.js";

describe("renderToolOutput", () => {
  it("passes strings through and serialises values", () => {
    expect(renderToolOutput("hello")).toBe("hello");
    expect(renderToolOutput({ a: 1 })).toBe('{"a":1}');
    expect(renderToolOutput(null)).toBe("null");
    expect(renderToolOutput(undefined)).toBe("null");
  });

  it("shortens long arrays with a marker that counts what was left out", () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ i }));
    const text = renderToolOutput(rows, {
      maxChars: 100_000,
      maxArrayItems: 8,
      maxStringChars: 100,
    });
    const parsed = JSON.parse(text) as unknown[];
    expect(parsed).toHaveLength(9);
    expect(parsed[0]).toEqual({ i: 0 });
    expect(parsed[6]).toBe("…[992 more items; 1000 in all]");
    expect(parsed[8]).toEqual({ i: 999 });
  });

  it("caps the whole text with a visible marker", () => {
    const text = renderToolOutput("x".repeat(50), {
      maxChars: 10,
      maxArrayItems: 5,
      maxStringChars: 5,
    });
    expect(text).toBe(`${"x".repeat(10)}\n…[truncated: showing 10 of 50 characters]`);
  });

  it("renders shared objects twice but cycles once", () => {
    const shared = { s: 1 };
    expect(renderToolOutput({ a: shared, b: shared })).toBe('{"a":{"s":1},"b":{"s":1}}');
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(renderToolOutput(cyclic)).toBe('{"name":"loop","self":"[circular]"}');
  });

  it("uses toJSON, and renders dates, maps and bigints", () => {
    const value = {
      when: new Date("2024-01-02T00:00:00Z"),
      map: new Map([["k", 1]]),
      big: 10n,
      custom: { toJSON: () => "custom" },
    };
    expect(renderToolOutput(value)).toBe(
      '{"when":"2024-01-02T00:00:00.000Z","map":{"k":1},"big":"10","custom":"custom"}',
    );
  });
});

describe("capText", () => {
  it("leaves short text alone", () => {
    expect(capText("abc", 3)).toBe("abc");
  });
});
