import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonBytes } from "./json-bytes.js";

const textBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? "");

/** Printable ASCII without the characters JSON escapes. */
const plainText = fc.string({
  unit: fc.constantFrom(..." !#$%&'()*+,-./0123456789:;<=>?@ABCXYZ[]^_`abcxyz{|}~"),
});

describe("jsonBytes", () => {
  it("equals the length of JSON.stringify for plain ASCII values of every JSON type", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constant(null),
        fc.boolean(),
        fc.double(),
        fc.integer(),
        plainText,
        fc.array(tie("value")),
        fc.dictionary(plainText, tie("value")),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        expect(jsonBytes(value)).toBe(textBytes(value));
      }),
    );
  });

  it("leaves out what JSON leaves out and uses toJSON", () => {
    const value = {
      kept: 1,
      missing: undefined,
      call: () => 1,
      holes: [undefined, () => 1, Symbol("s")],
      when: new Date(0),
    };
    expect(jsonBytes(value)).toBe(textBytes(value));
    expect(jsonBytes(Object.create({ inherited: 1 }))).toBe(2);
  });

  it("does not copy a long string to weigh it", () => {
    expect(jsonBytes({ document: "x".repeat(50_000_000) })).toBe(50_000_000 + 15);
  });

  it("stops at a cycle instead of overflowing the stack", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(jsonBytes(cyclic)).toBeGreaterThan(0);
  });
});
