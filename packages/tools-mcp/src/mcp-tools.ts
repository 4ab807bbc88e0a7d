import type { McpServerOptions } from "./mcp-server-options.js";
import { type McpToolSet, openMcpToolSet } from "./mcp-tool-set.js";

/**
 * Connects to an MCP server and returns its tools, ready for an agent. A `command` starts the
 * server as a child process (stdio); a `url` reaches it over Streamable HTTP, falling back to
 * the older HTTP+SSE transport.
 *
 * Rejects with McpConnectError when the server cannot be reached or does not complete the
 * handshake. Every later failure (a tool's error, a timeout, the server crashing) reaches the
 * model as a tool-error result, never as a rejected `invoke`.
 *
 * @example
 * await using files = await mcpTools({
 *   command: "npx",
 *   args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv/reports"],
 *   prefix: "fs",
 * });
 * const agent = await Agent.create({ description: "…", llm, tools: [files] });
 */
export function mcpTools(options: McpServerOptions): Promise<McpToolSet> {
  return openMcpToolSet(options);
}
