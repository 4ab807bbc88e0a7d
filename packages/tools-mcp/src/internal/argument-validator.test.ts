import { describe, expect, it } from "vitest";
import { ArgumentValidator } from "./argument-validator.js";

function check(schema: Record<string, unknown>, args: unknown) {
  const compiled = new ArgumentValidator().compile(schema);
  if ("error" in compiled) throw compiled.error;
  return compiled.check(args);
}

describe("ArgumentValidator", () => {
  it("validates draft-07 schemas with definitions", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      definitions: { port: { type: "integer", minimum: 1 } },
      properties: { port: { $ref: "#/definitions/port" } },
      required: ["port"],
      additionalProperties: false,
    };
    expect(check(schema, { port: 80 })).toEqual([]);
    expect(check(schema, { port: 0, extra: true })).toEqual([
      { path: ["extra"], message: "is not an accepted argument" },
      { path: ["port"], message: "must be >= 1" },
    ]);
  });

  it("validates draft 2020-12, the default when $schema is absent", () => {
    const schema = {
      type: "object",
      $defs: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } },
      properties: { "a/b": { $ref: "#/$defs/pair" } },
    };
    expect(check(schema, { "a/b": ["x", 1] })).toEqual([]);
    expect(check(schema, { "a/b": [1, 1] })).toEqual([
      { path: ["a/b", "0"], message: "must be string" },
    ]);
  });

  it("checks formats", () => {
    const schema = { type: "object", properties: { at: { type: "string", format: "date-time" } } };
    expect(check(schema, { at: "2026-11-25T09:00:00Z" })).toEqual([]);
    expect(check(schema, { at: "yesterday" })).toEqual([
      { path: ["at"], message: 'must match format "date-time"' },
    ]);
  });

  it("reports a schema it cannot compile instead of throwing", () => {
    const compiled = new ArgumentValidator().compile({
      type: "object",
      properties: { a: { $ref: "https://example.invalid/schema.json" } },
    });
    expect("error" in compiled && compiled.error.message).toMatch(/can't resolve reference/);
  });
});
