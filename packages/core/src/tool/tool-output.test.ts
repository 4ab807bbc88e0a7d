import { describe, expect, it } from "vitest";
import { capText, renderToolOutput } from "./tool-output.js";

describe("renderToolOutput", () => {
  it("passes strings through and serialises values", () => {
    expect(renderToolOutput("hello")).toBe("hello");
    expect(renderToolOutput({ a: 1 })).toBe('{"a":1}');
    expect(renderToolOutput(null)).toBe("null");
    expect(renderToolOutput(undefined)).toBe("null");
  });

  it("keeps even an undefined result within the cap", () => {
    const limits = { maxChars: 1, maxArrayItems: 10, maxStringChars: 10 };
    expect(renderToolOutput(undefined, limits)).toBe(capText("null", 1));
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

describe("renderToolOutput on results that cannot be rendered as they are", () => {
  const limits = { maxChars: 2_000, maxArrayItems: 4, maxStringChars: 50 };

  it("renders an invalid date and a part that throws as markers instead of failing", () => {
    const result = {
      when: new Date(Number.NaN),
      broken: {
        toJSON() {
          throw new Error("cannot serialise");
        },
      },
      getter: Object.defineProperty({}, "value", {
        enumerable: true,
        get() {
          throw new Error("no access");
        },
      }),
    };
    expect(JSON.parse(renderToolOutput(result, limits))).toEqual({
      when: "Invalid Date",
      broken: "[unreadable: cannot serialise]",
      getter: "[unreadable: no access]",
    });
  });

  it("cuts nesting deeper than 64 levels with a marker instead of exhausting the stack", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const text = renderToolOutput(deep, limits);
    expect(text).toContain("…[left out: nested deeper than 64 levels]");
    expect(text.startsWith("[".repeat(64))).toBe(true);
  });

  it("stops expanding a result that shares objects exponentially, with a visible marker", () => {
    let dag: unknown = { leaf: true };
    for (let i = 0; i < 40; i++) dag = { left: dag, right: dag };
    const text = renderToolOutput(dag, limits);
    expect(text).toMatch(/\n…\[truncated: showing 2000 of \d+ characters\]$/);
    expect(text).not.toContain("[circular]");
  });

  it("shortens typed arrays like arrays, reading only the items it shows", () => {
    const bytes = new Uint8Array(10_000_000).fill(7);
    expect(JSON.parse(renderToolOutput(bytes, limits))).toEqual([
      7,
      7,
      7,
      "…[9999996 more items; 10000000 in all]",
      7,
    ]);
  });

  it("keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    expect(renderToolOutput(value)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe("capText", () => {
  it("leaves short text alone", () => {
    expect(capText("abc", 3)).toBe("abc");
  });
});
