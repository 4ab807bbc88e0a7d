import { ReliabilityTally } from "@framework/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FrameworkError } from "../error/framework-error.js";
import { ToolArgumentsError } from "../error/tool-arguments-error.js";
import { ToolCallRefusedError } from "../error/tool-call-refused-error.js";
import { ToolNotFoundError } from "../error/tool-not-found-error.js";
import { silentLogger } from "../log/logger.js";
import { RegistryFile } from "../registry/registry-file.js";
import { temporaryDirectory } from "../registry/test-temporary-directory.js";
import { ToolRegistry } from "../registry/tool-registry.js";
import { executeTool } from "./execute-tool.js";
import { parseToolArguments, primaryFunction } from "./primary-function.js";
import { normalizeToolArguments } from "./tool-arguments.js";
import type { ToolCall } from "./tool-call.js";

// Property-based checks of what happens to a model's tool arguments: whatever it sends, the
// answer is an argument object or a ToolArgumentsError, and a tool call is a result value.
const tally = new ReliabilityTally("fuzz-tool-arguments");
const numRuns = 300;

const forecastParameters = z.object({
  city: z.string().min(1),
  days: z.number().int().min(1).max(14).default(3),
  unit: z.enum(["celsius", "fahrenheit"]).default("celsius"),
  tags: z.array(z.string()).optional(),
});

const forecast = primaryFunction(
  {
    name: "forecast",
    description: "Weather forecast.",
    parameters: forecastParameters,
    returns: "str",
  },
  ({ city, days, unit }) => `${city}: ${days} days in ${unit}`,
);

let registry: ToolRegistry;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const temporary = await temporaryDirectory();
  cleanup = temporary.cleanup;
  registry = new ToolRegistry({
    file: new RegistryFile("tools.json", temporary.dir),
    logger: silentLogger,
    cwd: temporary.dir,
  });
  await registry.registerModule(forecast);
});
afterAll(async () => {
  await cleanup();
  await tally.flush();
});

const context = { signal: new AbortController().signal, logger: silentLogger };

async function checkAsync<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>) {
  await fc.assert(fc.asyncProperty(arbitrary, predicate), { numRuns });
  tally.fuzzed(numRuns);
}

// Values a model could produce as arguments, JSON-encoded zero to three times.
const encoded = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 0, max: 3 }))
  .map(([value, times]) => {
    let result: unknown = value;
    for (let i = 0; i < times; i++) result = JSON.stringify(result);
    return result;
  });

// Arguments shaped like the tool's, each field sometimes right, sometimes anything at all.
const nearlyValid = fc.record(
  {
    city: fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 })),
    days: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.double(), fc.jsonValue({ maxDepth: 1 })),
    unit: fc.oneof(fc.constantFrom("celsius", "fahrenheit", "kelvin"), fc.jsonValue()),
    tags: fc.oneof(fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

const anyArguments = fc.oneof(
  encoded,
  nearlyValid,
  nearlyValid.map((value) => JSON.stringify(value)),
  fc.anything({ maxDepth: 3, withBigInt: true, withDate: true, withMap: true, withSet: true }),
);

describe("tool arguments (fuzzed)", () => {
  it("normalizeToolArguments returns an argument object or throws ToolArgumentsError", async () => {
    await checkAsync(fc.oneof(encoded, fc.anything({ maxDepth: 3 })), async (raw) => {
      let normalized: unknown;
      try {
        normalized = normalizeToolArguments(raw, "forecast");
      } catch (error) {
        expect(ToolArgumentsError.isInstance(error)).toBe(true);
        return;
      }
      expect(typeof normalized === "object" && normalized !== null).toBe(true);
      expect(Array.isArray(normalized)).toBe(false);
    });
  });

  it("parseToolArguments returns valid arguments with defaults, or throws ToolArgumentsError", async () => {
    const spec = { name: "forecast", parameters: forecastParameters };
    await checkAsync(anyArguments, async (raw) => {
      let args: z.output<typeof forecastParameters>;
      try {
        args = await parseToolArguments(spec, normalizeToolArguments(raw, spec.name));
      } catch (error) {
        expect(ToolArgumentsError.isInstance(error)).toBe(true);
        expect((error as ToolArgumentsError).issues.length).toBeGreaterThan(0);
        return;
      }
      expect(forecastParameters.safeParse(args).success).toBe(true);
      expect(args.days).toBeGreaterThanOrEqual(1);
      expect(["celsius", "fahrenheit"]).toContain(args.unit);
    });
  });

  it("executeTool resolves to a result or a framework error for any call", async () => {
    const call = fc.record(
      {
        tool_name: fc.oneof(fc.constant("forecast"), fc.string({ maxLength: 20 })),
        module_path: fc.oneof(fc.constant("inline"), fc.string({ maxLength: 20 })),
        arguments: anyArguments,
      },
      { requiredKeys: ["tool_name", "arguments"] },
    );
    await checkAsync(call, async (toolCall) => {
      const execution = await executeTool(toolCall as ToolCall, {
        tools: registry,
        context,
        timeoutMs: 60_000,
        logger: silentLogger,
      });
      if (execution.ok) {
        expect(toolCall.tool_name).toBe("forecast");
        expect(execution.result).toMatch(/^.+: \d+ days in (celsius|fahrenheit)$/);
        return;
      }
      expect(FrameworkError.isInstance(execution.error)).toBe(true);
      if (toolCall.tool_name !== "forecast") {
        expect(ToolNotFoundError.isInstance(execution.error)).toBe(true);
      } else if (toolCall.module_path !== undefined && toolCall.module_path !== "inline") {
        expect(ToolCallRefusedError.isInstance(execution.error)).toBe(true);
      } else {
        expect(ToolArgumentsError.isInstance(execution.error)).toBe(true);
      }
    });
  });
});
