import type { AnyPrimaryFunction, ToolContext } from "@framework/core";
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";

/** What an MCP tool returned, as a framework tool's result. */
export interface McpToolResult {
  /**
   * The text content blocks joined by blank lines. Other blocks (images, audio, binary
   * resources, resource links) appear as a one-line note, since the model only reads text.
   */
  text: string;
  /** The tool's `structuredContent`, when it sent some. */
  structuredContent?: Record<string, unknown>;
  /** Every content block as the server sent it. */
  content: ContentBlock[];
}

/**
 * One of a server's tools: a framework tool for an agent's `tools`, also callable directly with
 * its arguments (checked against the server's input schema first).
 */
export type McpTool = ((
  args?: Record<string, unknown>,
  context?: Partial<ToolContext>,
) => Promise<McpToolResult>) &
  AnyPrimaryFunction;

/**
 * Turns a `tools/call` result into a {@link McpToolResult}; a result in the form of protocol
 * 2024-10-07 (`toolResult`) becomes its JSON text.
 */
export function toMcpToolResult(result: CallToolResult | { toolResult: unknown }): McpToolResult {
  if (!("content" in result)) {
    const text = JSON.stringify(result.toolResult) ?? "";
    return { text, content: [{ type: "text", text }] };
  }
  const content = result.content ?? [];
  return {
    text: content.map(describeBlock).join("\n\n"),
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    content,
  };
}

/**
 * The text the model is sent: the tool's text, or its structured content as JSON when it sent
 * no text (the MCP spec asks servers to send both, but not every server does).
 */
export function mcpToolResultText(result: McpToolResult): string {
  if (result.text) return result.text;
  if (result.structuredContent) return JSON.stringify(result.structuredContent);
  return "(the tool returned no content)";
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case "resource": {
      const { resource } = block;
      if ("text" in resource) return resource.text;
      return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ""}, ${base64Bytes(resource.blob)} bytes]`;
    }
    case "resource_link":
      return `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}]`;
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
