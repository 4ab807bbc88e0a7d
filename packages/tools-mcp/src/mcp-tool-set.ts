import { createRequire } from "node:module";
import {
  AbortedError,
  getDefaultLogger,
  type LiveToolSource,
  type Logger,
  redactSecrets,
  type ToolContext,
  withRedaction,
} from "@framework/core";
import { liveToolSourceMarker } from "@framework/core/internal";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { McpDisconnectedError } from "./error/mcp-disconnected-error.js";
import { McpRequestError } from "./error/mcp-request-error.js";
import { McpTimeoutError } from "./error/mcp-timeout-error.js";
import { McpToolError } from "./error/mcp-tool-error.js";
import { ArgumentValidator } from "./internal/argument-validator.js";
import {
  type ConnectContext,
  type Connection,
  connect,
  provisionalLabel,
} from "./internal/connect.js";
import { frameworkTool, frameworkToolName } from "./internal/framework-tool.js";
import type { McpServerOptions } from "./mcp-server-options.js";
import { type McpTool, type McpToolResult, toMcpToolResult } from "./mcp-tool-result.js";

const errorMessageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

/** The default of `timeoutMs`: the MCP SDK's own request timeout. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
/** The default of `connectTimeoutMs`. */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;

let construct: (
  connection: Connection,
  options: McpServerOptions,
  logger: Logger,
  context: ConnectContext,
) => McpToolSet;

interface OfferedTool {
  /** The server's definition, as JSON: a tool whose definition is unchanged keeps its function. */
  definition: string;
  tool: McpTool;
}

/**
 * An MCP server's tools, connected. Give it to an agent as one of its `tools`
 * (`new Agent({ tools: [set] })`): the agent reads the set's current tools before every
 * `invoke`, so tools the server adds or removes later (`tools/list_changed`) are picked up.
 * Each tool can also be called directly through {@link McpToolSet.tools}.
 *
 * Close it when done (`await set.close()`, or `await using set = await mcpTools(…)`): a stdio
 * server's process is ended, an HTTP session is terminated.
 */
export class McpToolSet implements LiveToolSource, AsyncDisposable {
  readonly [liveToolSourceMarker] = true as const;

  /** The server's label in logs and errors. */
  readonly server: string;
  /** `mcp:<server>`: the `module_path` of this set's tools in the agent's records. */
  readonly modulePath: string;

  readonly #connection: Connection;
  readonly #options: McpServerOptions;
  readonly #logger: Logger;
  readonly #validator = new ArgumentValidator();
  readonly #timeoutMs: number;
  #offered = new Map<string, OfferedTool>();
  /** Whether the list was read once: the first read is the start, not a change. */
  #listed = false;
  #refreshing: Promise<void> = Promise.resolve();
  #closing: Promise<void> | undefined;
  #disconnected = false;

  // Reachable only through `openMcpToolSet` (below), which connects first.
  static {
    construct = (connection, options, logger, context) =>
      new McpToolSet(connection, options, logger, context);
  }

  /** Use {@link mcpTools}: it connects first. */
  private constructor(
    connection: Connection,
    options: McpServerOptions,
    logger: Logger,
    context: ConnectContext,
  ) {
    this.#connection = connection;
    this.#options = options;
    this.#logger = logger;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
    this.server =
      options.name ?? connection.client.getServerVersion()?.name ?? provisionalLabel(options);
    this.modulePath = `mcp:${this.server}`;
    connection.client.onclose = () => {
      if (this.#closing) return;
      this.#disconnected = true;
      this.#logger.warn(
        `MCP server ${this.server} disconnected; its tools now answer with an error`,
      );
    };
    // From now on the connection's events reach this set, under the name the server gave.
    context.label = this.server;
    context.onToolListChanged = () =>
      void this.refresh().catch((error: unknown) => {
        this.#logger.warn(
          `MCP server ${this.server} changed its tools, but reading them again failed (the previous list stays): ${errorMessageOf(error)}`,
        );
      });
    context.onConnectionLost = () => this.#connectionLost();
  }

  /** The server's tools now, by the name they are offered under (prefixed, if asked). */
  get tools(): Readonly<Record<string, McpTool>> {
    return Object.fromEntries([...this.#offered.values()].map(({ tool }) => [tool.name, tool]));
  }

  /** The server's tools now; what an agent reads before every `invoke`. */
  currentTools(): readonly McpTool[] {
    return [...this.#offered.values()].map(({ tool }) => tool);
  }

  /**
   * What the server says about using its tools, if anything (its `instructions`). Not added to
   * any prompt by itself: pass it to the agent's `instruction` if you want the model to see it.
   */
  get instructions(): string | undefined {
    return this.#connection.client.getInstructions();
  }

  /** False once the server went away or the set was closed. */
  get connected(): boolean {
    return !this.#disconnected && !this.#closing;
  }

  /**
   * Reads the server's tool list again (all pages). Runs by itself when the server sends
   * `tools/list_changed`. A failed read keeps the previous list and rejects.
   */
  refresh(): Promise<void> {
    const next = this.#refreshing.catch(() => {}).then(() => this.#readTools());
    this.#refreshing = next;
    return next;
  }

  /** Ends the connection; a stdio server's process is stopped. Safe to call more than once. */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown().catch((error: unknown) => {
      this.#logger.debug(`Closing MCP server ${this.server}: ${errorMessageOf(error)}`);
    });
    return this.#closing;
  }

  /** `await using set = await mcpTools(…)` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Ends the connection the server left: calls in flight fail at once, not at their timeout. */
  #connectionLost(): void {
    if (this.#disconnected || this.#closing) return;
    void this.#connection.transport.close().catch(() => {});
  }

  async #shutDown(): Promise<void> {
    const { transport } = this.#connection;
    // Ends the session on the server too (a server may answer 405: it keeps no sessions).
    if (!this.#disconnected && transport instanceof StreamableHTTPClientTransport) {
      await transport.terminateSession().catch(() => {});
    }
    await this.#connection.client.close();
  }

  async #readTools(): Promise<void> {
    const listed: Tool[] = [];
    let cursor: string | undefined;
    do {
      this.#ensureConnected();
      const page = await this.#request("tools/list", undefined, (options) =>
        this.#connection.client.listTools(cursor === undefined ? {} : { cursor }, options),
      );
      listed.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);

    const offered = new Map<string, OfferedTool>();
    for (const tool of listed) {
      const name = frameworkToolName(tool.name, this.#options.prefix);
      if (offered.has(name)) {
        this.#logger.warn(
          `MCP server ${this.server} has two tools named ${name} once made a valid tool name; ${tool.name} is left out`,
        );
        continue;
      }
      const definition = JSON.stringify(tool);
      const previous = this.#offered.get(name);
      offered.set(
        name,
        previous?.definition === definition
          ? previous
          : { definition, tool: this.#toFrameworkTool(tool) },
      );
    }
    const first = !this.#listed;
    const changed =
      offered.size !== this.#offered.size ||
      [...offered].some(([name, entry]) => this.#offered.get(name) !== entry);
    this.#offered = offered;
    this.#listed = true;
    if (changed && !first) {
      this.#logger.info(`MCP server ${this.server} offers: ${[...offered.keys()].join(", ")}`);
      this.#options.onToolsChanged?.(this.currentTools());
    }
  }

  #toFrameworkTool(tool: Tool): McpTool {
    return frameworkTool(tool, {
      server: this.server,
      prefix: this.#options.prefix,
      validator: this.#validator,
      logger: this.#logger,
      call: (toolName, args, context) => this.#callTool(toolName, args, context),
    });
  }

  async #callTool(
    toolName: string,
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<McpToolResult> {
    AbortedError.throwIfAborted(context.signal, `MCP tool ${toolName}`);
    this.#ensureConnected();
    const result = await this.#request(
      "tools/call",
      { toolName, signal: context.signal },
      (options) =>
        this.#connection.client.callTool({ name: toolName, arguments: args }, undefined, options),
    );
    const converted = toMcpToolResult(result);
    if (result.isError) {
      throw new McpToolError({
        server: this.server,
        toolName,
        text: redactSecrets(converted.text),
        ...(converted.structuredContent ? { structuredContent: converted.structuredContent } : {}),
      });
    }
    return converted;
  }

  /** Sends one request with this set's timeout, turning every failure into a typed error. */
  async #request<T>(
    method: string,
    call: { toolName: string; signal: AbortSignal } | undefined,
    send: (options: { timeout: number; signal?: AbortSignal }) => Promise<T>,
  ): Promise<T> {
    try {
      return await send({
        timeout: this.#timeoutMs,
        ...(call ? { signal: call.signal } : {}),
      });
    } catch (error) {
      throw this.#requestError(error, method, call);
    }
  }

  #requestError(
    error: unknown,
    method: string,
    call: { toolName: string; signal: AbortSignal } | undefined,
  ): Error {
    // The SDK reports an abort as a timeout; the signal says which it was.
    if (call?.signal.aborted) {
      return new AbortedError({
        operation: `MCP tool ${call.toolName}`,
        cause: call.signal.reason,
      });
    }
    if (
      this.#disconnected ||
      this.#closing ||
      (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    ) {
      return this.#disconnectedError(error);
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new McpTimeoutError({
        server: this.server,
        method,
        ...(call ? { toolName: call.toolName } : {}),
        timeoutMs: this.#timeoutMs,
        cause: error,
      });
    }
    const code = error instanceof McpError ? error.code : undefined;
    return new McpRequestError({
      server: this.server,
      method,
      reason: redactSecrets(errorMessageOf(error)),
      ...(code === undefined ? {} : { code }),
      ...(error instanceof McpError && error.data !== undefined ? { data: error.data } : {}),
      cause: error,
    });
  }

  #ensureConnected(): void {
    if (this.#disconnected || this.#closing) throw this.#disconnectedError(undefined);
  }

  #disconnectedError(cause: unknown): McpDisconnectedError {
    const stderr = this.#connection.stderr();
    return new McpDisconnectedError({
      server: this.server,
      closedByClient: this.#closing !== undefined,
      ...(stderr ? { stderr } : {}),
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

/**
 * Connects to a server, reads its tools and returns them as a set: what {@link mcpTools}
 * does. Kept off the class, so connecting is not a member users see beside the set's own.
 */
export async function openMcpToolSet(options: McpServerOptions): Promise<McpToolSet> {
  const logger = withRedaction(options.logger ?? getDefaultLogger());
  const context: ConnectContext = {
    label: provisionalLabel(options),
    clientInfo: { name: "@framework/tools-mcp", version },
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS,
    signal: options.signal,
    logger,
    // Notifications can only arrive after the handshake; the set takes them over when made.
    onToolListChanged: () => {},
    onConnectionLost: () => {},
  };
  const connection = await connect(options, context);
  const set = construct(connection, options, logger, context);
  try {
    await set.refresh();
  } catch (error) {
    await set.close();
    throw error;
  }
  logger.info(
    `Connected to MCP server ${set.server} over ${connection.kind}: ${set.currentTools().length} tools`,
  );
  return set;
}
