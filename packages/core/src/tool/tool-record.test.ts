import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getToolSpec, primaryFunction } from "./primary-function.js";
import { createToolRecord, toolParametersJsonSchema } from "./tool-record.js";

const fetchStock = primaryFunction(
  {
    description: "Fetch historical prices.\n\nArgs: symbol ...",
    parameters: z.object({
      symbol: z.string(),
      start_date: z.string().default("2020-01-01"),
      interval: z.string().default("1d"),
      limit: z.number().int().optional(),
    }),
    returns: "Table of historical prices, or None on failure",
  },
  async function fetch_stock_data() {
    return null;
  },
);

const searchApi = primaryFunction(
  {
    description: "Web search.",
    parameters: z.object({ query: z.union([z.string(), z.record(z.string(), z.string())]) }),
    returns: "str",
  },
  async function search_api() {
    return "";
  },
);

describe("createToolRecord", () => {
  it("has exactly the specification's fields for a module tool", () => {
    const record = createToolRecord(getToolSpec(fetchStock), {
      modulePath: "@framework/tools-finance",
      toolType: "module",
      dependencies: ["yahoo-finance2"],
    });
    expect(Object.keys(record).sort()).toEqual(
      [
        "arguments",
        "dependencies",
        "docstring",
        "module_path",
        "return",
        "tool_call_id",
        "tool_name",
        "tool_type",
      ].sort(),
    );
    expect(record).toMatchObject({
      tool_name: "fetch_stock_data",
      arguments: {
        symbol: "string",
        start_date: "2020-01-01",
        interval: "1d",
        limit: "integer | undefined",
      },
      return: "Table of historical prices, or None on failure",
      docstring: "Fetch historical prices.",
      dependencies: ["yahoo-finance2"],
      module_path: "@framework/tools-finance",
      tool_type: "module",
    });
    expect(record.tool_call_id).toMatch(/^tool_[0-9a-f-]{36}$/);
  });

  it("marks runtime tools and names union types", () => {
    const record = createToolRecord(getToolSpec(searchApi), {
      modulePath: "runtime",
      toolType: "function",
      dependencies: [],
      isRuntime: true,
    });
    expect(record.is_runtime).toBe(true);
    expect(record.arguments).toEqual({ query: "string | Record<string, string>" });
  });

  it("gives each registration its own tool_call_id", () => {
    const origin = { modulePath: "m", toolType: "module" as const, dependencies: [] };
    const a = createToolRecord(getToolSpec(searchApi), origin);
    const b = createToolRecord(getToolSpec(searchApi), origin);
    expect(a.tool_call_id).not.toBe(b.tool_call_id);
  });
});

describe("toolParametersJsonSchema", () => {
  it("drops the $schema marker and keeps defaults", () => {
    const schema = toolParametersJsonSchema(getToolSpec(fetchStock).parameters);
    expect(schema.$schema).toBeUndefined();
    expect(schema).toMatchObject({
      type: "object",
      properties: { start_date: { type: "string", default: "2020-01-01" } },
      required: ["symbol"],
    });
  });
});
