import { getToolSpec, type ToolContext } from "@framework/core";
import { createCapturingLogger } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { ArgumentValidator } from "./argument-validator.js";
import { frameworkTool, frameworkToolName } from "./framework-tool.js";

describe("frameworkToolName", () => {
  it("prefixes with an underscore", () => {
    expect(frameworkToolName("create_issue", "github")).toBe("github_create_issue");
    expect(frameworkToolName("create_issue", undefined)).toBe("create_issue");
  });

  it("replaces characters model APIs refuse and keeps at most 64", () => {
    expect(frameworkToolName("files.read/v2", undefined)).toBe("files_read_v2");
    expect(frameworkToolName("x".repeat(80), "p")).toHaveLength(64);
  });
});

describe("frameworkTool", () => {
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  const context = (logger = createCapturingLogger()) => ({
    server: "srv",
    prefix: "srv",
    validator: new ArgumentValidator(),
    logger,
    call: async (name: string, args: Record<string, unknown>, _context: ToolContext) => {
      calls.push({ name, args });
      return { text: "done", content: [] };
    },
  });

  it("shows the server's schema without $schema, and calls the tool by its own name", async () => {
    const tool = frameworkTool(
      {
        name: "lookup",
        title: "Look up",
        inputSchema: {
          $schema: "http://json-schema.org/draft-07/schema#",
          type: "object",
          properties: { q: { type: "string" } },
        },
      },
      context(),
    );
    const spec = getToolSpec(tool);
    expect(spec.name).toBe("srv_lookup");
    expect(spec.description).toBe("Look up");
    expect(spec.parametersJsonSchema).toEqual({
      type: "object",
      properties: { q: { type: "string" } },
    });
    expect(spec.toModelOutput?.({ text: "done", content: [] })).toBe("done");
    await tool({ q: "x", extra: 1 });
    expect(calls.at(-1)).toEqual({ name: "lookup", args: { q: "x", extra: 1 } });
  });

  it("passes arguments unchecked, with a warning, when the schema does not compile", async () => {
    const logger = createCapturingLogger();
    const tool = frameworkTool(
      {
        name: "remote",
        inputSchema: { type: "object", properties: { a: { $ref: "https://example.invalid/s" } } },
      },
      context(logger),
    );
    expect(logger.lines.join("\n")).toMatch(/input schema does not compile/);
    await tool({ a: 42 });
    expect(calls.at(-1)).toEqual({ name: "remote", args: { a: 42 } });
  });
});
