export { McpConnectError, type McpTransportKind } from "./mcp-connect-error.js";
export { McpDisconnectedError } from "./mcp-disconnected-error.js";
export { McpRequestError } from "./mcp-request-error.js";
export { McpTimeoutError } from "./mcp-timeout-error.js";
export { McpToolError } from "./mcp-tool-error.js";
