import { ReliabilityTally } from "@framework/testing";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { renderToolOutput, type ToolOutputLimits } from "./tool-output.js";

// Property-based checks of how tool results become text: any value, cycles included, renders
// without throwing and within the cap, with a visible marker whenever something is cut.
const tally = new ReliabilityTally("fuzz-tool-output");
afterAll(() => tally.flush());

const numRuns = 300;

function check<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => void): void {
  fc.assert(fc.property(arbitrary, predicate), { numRuns });
  tally.fuzzed(numRuns);
}

const limits: fc.Arbitrary<ToolOutputLimits> = fc.record({
  maxChars: fc.integer({ min: 1, max: 3_000 }),
  maxArrayItems: fc.integer({ min: 1, max: 50 }),
  maxStringChars: fc.integer({ min: 1, max: 500 }),
});

const anyValue = fc.anything({
  maxDepth: 4,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
});

// Parts a tool result may hold that JSON.stringify alone chokes on or renders badly.
const oddPart = fc.constantFrom<() => unknown>(
  () => new Date(Number.NaN),
  () => ({
    toJSON() {
      throw new Error("toJSON failed");
    },
  }),
  () =>
    Object.defineProperty({}, "secret", {
      enumerable: true,
      get() {
        throw new Error("getter failed");
      },
    }),
  () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 5_000; i++) deep = { deep };
    return deep;
  },
  () => {
    let shared: unknown = [1];
    for (let i = 0; i < 30; i++) shared = [shared, shared];
    return shared;
  },
  () => Symbol("s"),
  () => () => "a function",
  () => 12345678901234567890n,
);
const withOddParts = fc
  .tuple(anyValue, fc.array(oddPart, { minLength: 1, maxLength: 3 }))
  .map(([value, parts]) => ({ value, parts: parts.map((make) => make()) }));

// The same values, with some object inside made to point back at the root (or at itself).
const cyclicValue = fc.tuple(anyValue, fc.nat(), fc.boolean()).map(([value, pick, toRoot]) => {
  const root: Record<string, unknown> = { value };
  const objects: Array<Record<string, unknown>> = [];
  const visit = (node: unknown, depth: number) => {
    if (node === null || typeof node !== "object" || depth > 6) return;
    if (!Object.isFrozen(node) && !ArrayBuffer.isView(node)) {
      objects.push(node as Record<string, unknown>);
    }
    for (const child of Object.values(node)) visit(child, depth + 1);
  };
  visit(root, 0);
  const target = objects[pick % objects.length] ?? root;
  target.loop = toRoot ? root : target;
  return root;
});

const capMarker = /^\n…\[truncated: showing (\d+) of (\d+) characters\]$/;

function expectWithinCap(text: string, { maxChars }: ToolOutputLimits): void {
  expect(typeof text).toBe("string");
  if (text.length <= maxChars) return;
  const marker = capMarker.exec(text.slice(maxChars));
  expect(marker, "a cut text ends with the cap marker").not.toBeNull();
  expect(Number(marker?.[1])).toBe(maxChars);
  expect(Number(marker?.[2])).toBeGreaterThan(maxChars);
}

describe("renderToolOutput (fuzzed)", () => {
  it("renders any value, cycles included, without throwing and within the cap", () => {
    check(
      fc.tuple(fc.oneof(anyValue, cyclicValue, withOddParts), limits),
      ([value, outputLimits]) => {
        expectWithinCap(renderToolOutput(value, outputLimits), outputLimits);
      },
    );
  });

  it("passes any string through, cut only at the cap", () => {
    check(
      fc.tuple(fc.string({ unit: "binary", maxLength: 1_500 }), limits),
      ([text, outputLimits]) => {
        const rendered = renderToolOutput(text, outputLimits);
        expectWithinCap(rendered, outputLimits);
        expect(rendered.slice(0, outputLimits.maxChars)).toBe(text.slice(0, outputLimits.maxChars));
      },
    );
  });

  it("renders JSON data within every limit exactly as JSON.stringify does", () => {
    const roomy = { maxChars: 1_000_000, maxArrayItems: 1_000, maxStringChars: 100_000 };
    check(fc.jsonValue({ maxDepth: 6 }), (value) => {
      if (typeof value === "string") return;
      expect(renderToolOutput(value, roomy)).toBe(JSON.stringify(value));
    });
  });
});
