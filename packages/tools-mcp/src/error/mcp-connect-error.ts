import { FrameworkError } from "@framework/core";

const name = "McpConnectError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** How the client talks to an MCP server. */
export type McpTransportKind = "stdio" | "streamable-http" | "sse";

/**
 * The MCP server could not be reached or did not complete the MCP handshake: the command does
 * not exist, the process exited, the URL refused the connection or answered with an HTTP error.
 */
export class McpConnectError extends FrameworkError {
  private readonly [symbol] = true;

  /** The server's label: the `name` option, the command's name or the URL's host. */
  declare readonly server: string;
  /** How the client tried to reach the server. */
  declare readonly transport: McpTransportKind;
  /** The HTTP status the server answered with, when it did. */
  declare readonly status: number | undefined;
  /** The end of what a stdio server wrote to stderr, secrets redacted. */
  declare readonly stderr: string | undefined;

  constructor(options: {
    server: string;
    transport: McpTransportKind;
    reason: string;
    status?: number;
    stderr?: string;
    cause?: unknown;
  }) {
    const tail = options.stderr ? `\nServer stderr (end):\n${options.stderr}` : "";
    super({
      name,
      message: `Could not connect to MCP server "${options.server}" over ${options.transport}: ${options.reason}${tail}`,
      cause: options.cause,
      fields: {
        server: options.server,
        transport: options.transport,
        status: options.status,
        stderr: options.stderr,
      },
    });
  }

  static override isInstance(error: unknown): error is McpConnectError {
    return FrameworkError.hasMarker(error, marker);
  }
}
