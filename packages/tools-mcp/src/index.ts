export {
  McpConnectError,
  McpDisconnectedError,
  McpRequestError,
  McpTimeoutError,
  McpToolError,
  type McpTransportKind,
} from "./error/index.js";
export { parseMcpCommand } from "./mcp-command.js";
export type {
  McpCommonOptions,
  McpHttpServer,
  McpServerOptions,
  McpStdioServer,
} from "./mcp-server-options.js";
export { type McpTool, type McpToolResult, mcpToolResultText } from "./mcp-tool-result.js";
export {
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_MCP_TIMEOUT_MS,
  McpToolSet,
} from "./mcp-tool-set.js";
export { mcpTools } from "./mcp-tools.js";
