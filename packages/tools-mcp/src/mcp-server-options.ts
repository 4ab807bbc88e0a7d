import type { Logger } from "@framework/core";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { McpTool } from "./mcp-tool-result.js";

/** Options every MCP server connection takes. */
export interface McpCommonOptions {
  /**
   * The server's label in logs, errors and the tools' `module_path` (`mcp:<name>`). Default:
   * the name the server reports, or the command's name or the URL's host before it does.
   */
  name?: string;
  /**
   * Put before every tool name with an underscore (`"github"` → `github_create_issue`), so two
   * servers' tools cannot clash.
   */
  prefix?: string;
  /** Longest wait for one tool call before it is cancelled with McpTimeoutError. Default 60 s. */
  timeoutMs?: number;
  /** Longest wait for the connection and MCP handshake. Default 30 s. */
  connectTimeoutMs?: number;
  /** Cancels connecting. */
  signal?: AbortSignal;
  /** Where connection events, tool list changes and (at debug level) server stderr go. */
  logger?: Logger;
  /** Called after the server's tool list changed and the new list was read. */
  onToolsChanged?(tools: readonly McpTool[]): void;
}

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServer extends McpCommonOptions {
  /** The program to run, e.g. `"npx"` or `process.execPath`. Run without a shell. */
  command: string;
  args?: readonly string[];
  /**
   * Environment variables for the server, added to a safe default set (`PATH`, `HOME`, …):
   * the rest of this process's environment, and its secrets, is not passed on.
   */
  env?: Readonly<Record<string, string>>;
  /** The server's working directory. */
  cwd?: string;
}

/** A server reached over HTTP. */
export interface McpHttpServer extends McpCommonOptions {
  /** The server's MCP endpoint, e.g. `https://example.com/mcp`. */
  url: string | URL;
  /** Sent with every request, e.g. `{ Authorization: "Bearer …" }`. Never logged. */
  headers?: Readonly<Record<string, string>>;
  /** OAuth for servers that require it (the SDK's provider interface). */
  authProvider?: OAuthClientProvider;
  /**
   * `auto` (default): Streamable HTTP, then the older HTTP+SSE transport if the server answers
   * 400, 404 or 405 as older servers do. Or pin one of them.
   */
  transport?: "auto" | "streamable-http" | "sse";
}

/** Where an MCP server is and how to reach it. */
export type McpServerOptions = McpStdioServer | McpHttpServer;
