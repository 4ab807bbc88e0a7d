import { basename } from "node:path";
import { type Logger, redactSecrets, registerSecret } from "@framework/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { McpConnectError, type McpTransportKind } from "../error/mcp-connect-error.js";
import type { McpHttpServer, McpServerOptions, McpStdioServer } from "../mcp-server-options.js";
import { StderrTail } from "./stderr-tail.js";

/** A client connected to a server, and what is known about how. */
export interface Connection {
  client: Client;
  transport: Transport;
  kind: McpTransportKind;
  /** The end of a stdio server's stderr, redacted; undefined for HTTP. */
  stderr(): string | undefined;
}

/** What {@link connect} needs besides the server options. */
export interface ConnectContext {
  /** The server's label in log lines: provisional until the server names itself. */
  label: string;
  clientInfo: { name: string; version: string };
  connectTimeoutMs: number;
  signal: AbortSignal | undefined;
  logger: Logger;
  /** Called when the server says its tool list changed; the tool set installs its own. */
  onToolListChanged: () => void;
  /** Called when an HTTP server is gone for good: its streams could not be reopened. */
  onConnectionLost: () => void;
}

// What the SDK's Streamable HTTP transport reports when it gave up reopening a dropped stream
// (the server is down). It does not fail the requests in flight, which would otherwise wait
// for their timeout; a test holds this to the SDK version in use.
const reconnectGaveUp = "Maximum reconnection attempts";

// An older server (HTTP+SSE transport of protocol 2024-11-05) answers the Streamable HTTP
// POST with one of these; the MCP spec's backwards-compatibility rule is to try SSE then.
const legacyServerStatuses = new Set([400, 404, 405]);

// Header and environment names whose values are credentials.
const secretHeaderName = /authorization|cookie|token|secret|password|api-?key/i;
const secretVariableName = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL/i;

/**
 * Registers the credentials given for a server as secrets, so they are redacted wherever they
 * could surface: an error body that echoes a header, a server's stderr that prints its
 * configuration.
 */
function registerCredentials(options: McpServerOptions): void {
  const credentials =
    "command" in options
      ? Object.entries(options.env ?? {}).filter(([name]) => secretVariableName.test(name))
      : Object.entries(options.headers ?? {}).filter(([name]) => secretHeaderName.test(name));
  for (const [, value] of credentials) {
    registerSecret(value);
    // `Bearer <token>`: the token alone may be echoed too.
    registerSecret(value.split(" ").at(-1));
  }
  if (!("command" in options)) {
    const url = new URL(options.url);
    registerSecret(decodeURIComponent(url.password));
    for (const [name, value] of url.searchParams) {
      if (secretHeaderName.test(name)) registerSecret(value);
    }
  }
}

/** A label for a server before it names itself; never includes arguments, headers or query. */
export function provisionalLabel(options: McpServerOptions): string {
  if (options.name) return options.name;
  if ("command" in options) return basename(options.command);
  return new URL(options.url).host;
}

/**
 * Connects and completes the MCP handshake: stdio for a command; for a URL Streamable HTTP,
 * then the older SSE transport when the server answers as an older server does (unless
 * `transport` pins one).
 */
export async function connect(
  options: McpServerOptions,
  context: ConnectContext,
): Promise<Connection> {
  registerCredentials(options);
  if ("command" in options) return connectStdio(options, context);
  const mode = options.transport ?? "auto";
  if (mode === "sse") return connectHttp(options, context, "sse");
  try {
    return await connectHttp(options, context, "streamable-http");
  } catch (error) {
    if (
      mode === "streamable-http" ||
      !(McpConnectError.isInstance(error) && isLegacyAnswer(error))
    ) {
      throw error;
    }
    context.logger.info(
      `MCP server ${context.label} does not speak Streamable HTTP (HTTP ${error.status}); trying SSE`,
    );
    return connectHttp(options, context, "sse");
  }
}

function isLegacyAnswer(error: McpConnectError): boolean {
  return error.status !== undefined && legacyServerStatuses.has(error.status);
}

async function connectStdio(options: McpStdioServer, context: ConnectContext): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: options.command,
    ...(options.args ? { args: [...options.args] } : {}),
    ...(options.env ? { env: { ...options.env } } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: "pipe",
  });
  const tail = new StderrTail();
  transport.stderr?.on("data", (chunk: Buffer) => {
    for (const line of tail.append(chunk.toString("utf8"))) {
      context.logger.debug(`[mcp ${context.label}] ${line}`);
    }
  });
  return handshake(transport, "stdio", context, () => tail.text());
}

async function connectHttp(
  options: McpHttpServer,
  context: ConnectContext,
  kind: "streamable-http" | "sse",
): Promise<Connection> {
  const url = new URL(options.url);
  const shared = {
    ...(options.headers ? { requestInit: { headers: { ...options.headers } } } : {}),
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
  };
  const transport =
    kind === "sse"
      ? new SSEClientTransport(url, shared)
      : new StreamableHTTPClientTransport(url, shared);
  return handshake(transport, kind, context, () => undefined);
}

async function handshake(
  transport: Transport,
  kind: McpTransportKind,
  context: ConnectContext,
  stderr: () => string | undefined,
): Promise<Connection> {
  const client = new Client(context.clientInfo, {
    capabilities: {},
    listChanged: {
      tools: { autoRefresh: false, onChanged: () => context.onToolListChanged() },
    },
  });
  // The SDK reports transport trouble here too; what matters reaches the caller as a typed
  // error from the request it broke, so this only goes to the debug log.
  client.onerror = (error) => {
    context.logger.debug(`MCP server ${context.label}: ${redactSecrets(error.message)}`);
    if (kind === "streamable-http" && error.message.startsWith(reconnectGaveUp)) {
      context.onConnectionLost();
    }
  };
  try {
    await client.connect(transport, {
      timeout: context.connectTimeoutMs,
      ...(context.signal ? { signal: context.signal } : {}),
    });
  } catch (error) {
    await transport.close().catch(() => {});
    throw connectError(error, kind, context, stderr());
  }
  return { client, transport, kind, stderr };
}

function connectError(
  error: unknown,
  kind: McpTransportKind,
  context: ConnectContext,
  stderr: string | undefined,
): McpConnectError {
  const status =
    (error instanceof StreamableHTTPError || error instanceof SseError) &&
    error.code !== undefined &&
    error.code > 0
      ? error.code
      : undefined;
  return new McpConnectError({
    server: context.label,
    transport: kind,
    reason: redactSecrets(connectFailure(error, context)),
    ...(status === undefined ? {} : { status }),
    ...(stderr ? { stderr } : {}),
    cause: error,
  });
}

function connectFailure(error: unknown, context: ConnectContext): string {
  if (context.signal?.aborted) return "the connection attempt was aborted";
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return "the server closed the connection before the MCP handshake finished";
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return `no answer to the MCP handshake within ${context.connectTimeoutMs} ms`;
  }
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | undefined)?.code;
  if (code === "ENOENT") return "the command was not found";
  if (code === "EACCES") return "the command is not executable";
  const causeCode = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof causeCode === "string" ? `${message} (${causeCode})` : message;
}
