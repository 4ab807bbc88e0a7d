import type { JsonSchema, Logger, ToolContext } from "@framework/core";
import { primaryFunction } from "@framework/core";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type McpTool, type McpToolResult, mcpToolResultText } from "../mcp-tool-result.js";
import type { ArgumentValidator } from "./argument-validator.js";

// OpenAI-compatible APIs accept tool names of these characters, at most 64 of them.
const invalidNameCharacters = /[^A-Za-z0-9_-]/g;
const maxToolNameLength = 64;

/** The name a server tool is offered under: prefixed, and cut to what model APIs accept. */
export function frameworkToolName(toolName: string, prefix: string | undefined): string {
  const name = prefix ? `${prefix}_${toolName}` : toolName;
  return name.replace(invalidNameCharacters, "_").slice(0, maxToolNameLength);
}

/** What a framework tool made from a server's tool needs. */
export interface FrameworkToolContext {
  server: string;
  prefix: string | undefined;
  validator: ArgumentValidator;
  logger: Logger;
  call(
    toolName: string,
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<McpToolResult>;
}

/**
 * A framework tool for one of a server's tools. The model is shown the server's input schema
 * as it is, and arguments are checked against it before the call, so a bad call is answered
 * at once with every problem by argument name (and the server never sees it).
 */
export function frameworkTool(tool: Tool, context: FrameworkToolContext): McpTool {
  const name = frameworkToolName(tool.name, context.prefix);
  const { $schema: _, ...inputSchema } = tool.inputSchema as JsonSchema;
  const compiled = context.validator.compile(inputSchema);
  if ("error" in compiled) {
    context.logger.warn(
      `MCP tool ${tool.name} of ${context.server}: its input schema does not compile (${compiled.error.message}); arguments go to the server unchecked`,
    );
  }
  const check = "check" in compiled ? compiled.check : () => [];
  const parameters = z.looseObject({}).superRefine((args, issues) => {
    for (const { path, message } of check(args)) {
      issues.addIssue({ code: "custom", path, message });
    }
  });
  return primaryFunction(
    {
      name,
      description: tool.description?.trim() || tool.title || tool.name,
      parameters,
      parametersJsonSchema: inputSchema,
      returns: tool.outputSchema ? "McpToolResult (with structuredContent)" : "McpToolResult",
      toModelOutput: mcpToolResultText,
    },
    (args, toolContext) => context.call(tool.name, args, toolContext),
  ) as unknown as McpTool;
}
