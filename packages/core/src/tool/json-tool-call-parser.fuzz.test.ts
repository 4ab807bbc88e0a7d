import { ReliabilityTally } from "@framework/testing";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseJsonToolCalls } from "./json-tool-call-parser.js";

// Property-based checks of the JSON-mode parser against what a model may write. Runs are
// bounded so the suite stays fast; a failure prints the seed and the shrunk input.
const tally = new ReliabilityTally("fuzz-json-tool-call-parser");
afterAll(() => tally.flush());

const numRuns = 400;

function check<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => void): void {
  fc.assert(fc.property(arbitrary, predicate), { numRuns });
  tally.fuzzed(numRuns);
}

// Text made mostly of the characters the parser cares about, so brackets, quotes, escapes and
// fences meet in every combination.
const structural = fc.string({
  unit: fc.constantFrom(
    "{",
    "}",
    "[",
    "]",
    '"',
    "\\",
    ":",
    ",",
    "```",
    "\n",
    " ",
    "a",
    "1",
    '"tool_name"',
    '"name"',
    '"arguments"',
    '"tool_calls"',
    '"function"',
    "null",
  ),
  maxLength: 300,
});

// Prose as a model writes it around a call: anything but the characters that open or close
// JSON, strings or code fences.
const prose = fc
  .string({ unit: "grapheme", maxLength: 120 })
  .map((text) => text.replace(/[{}[\]"`\\]/g, " "));

const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,30}$/);
const argumentsObject = fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), {
  maxKeys: 5,
});
const specCall = fc.record(
  {
    tool_name: toolName,
    tool_type: fc.constantFrom("module", "function"),
    module_path: fc.string({ maxLength: 40 }),
    arguments: argumentsObject,
  },
  { requiredKeys: ["tool_name", "arguments"] },
);

/** `value` as the parser sees it after a JSON round trip (which turns -0 into 0). */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

function expectWellFormed(calls: unknown): void {
  expect(Array.isArray(calls)).toBe(true);
  for (const call of calls as Array<Record<string, unknown>>) {
    expect(typeof call.tool_name).toBe("string");
    expect((call.tool_name as string).trim()).not.toBe("");
  }
}

describe("parseJsonToolCalls (fuzzed)", () => {
  it("never throws on any text, and every call it returns has a tool name", () => {
    check(fc.string({ unit: "binary", maxLength: 500 }), (text) => {
      expectWellFormed(parseJsonToolCalls(text));
    });
    check(structural, (text) => {
      expectWellFormed(parseJsonToolCalls(text));
    });
  });

  it("never throws on any JSON value, however it is wrapped", () => {
    check(fc.jsonValue({ maxDepth: 6 }), (value) => {
      expectWellFormed(parseJsonToolCalls(JSON.stringify(value)));
      expectWellFormed(parseJsonToolCalls(`\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``));
    });
  });

  it("finds a call embedded in arbitrary prose, bare or fenced", () => {
    check(fc.tuple(prose, specCall, prose, fc.boolean()), ([before, call, after, fenced]) => {
      const json = JSON.stringify(call);
      const text = fenced
        ? `${before}\n\`\`\`json\n${json}\n\`\`\`\n${after}`
        : before + json + after;
      expect(parseJsonToolCalls(text)).toEqual([viaJson(call)]);
    });
  });

  it("finds a call after prose with an unclosed bracket or a stray closing one", () => {
    check(
      fc.tuple(prose, fc.constantFrom("[", "{", "}", "]", "[1, {"), specCall),
      ([before, stray, call]) => {
        expect(parseJsonToolCalls(`${before}${stray} ${JSON.stringify(call)}`)).toEqual([
          viaJson(call),
        ]);
      },
    );
  });

  it("finds every call of a list, in order", () => {
    check(fc.array(specCall, { minLength: 1, maxLength: 5 }), (calls) => {
      expect(parseJsonToolCalls(`Calling: ${JSON.stringify(calls)}`)).toEqual(viaJson(calls));
      expect(parseJsonToolCalls(JSON.stringify({ tool_calls: calls }))).toEqual(viaJson(calls));
    });
  });
});
