import { FrameworkError } from "@framework/core";

const name = "McpDisconnectedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The connection to the MCP server is gone: the server process exited or crashed, the HTTP
 * session ended, or the tool set was closed. Calls in flight and every later call fail with it.
 */
export class McpDisconnectedError extends FrameworkError {
  private readonly [symbol] = true;

  /** The server's label: the `name` option, or the name the server reported. */
  declare readonly server: string;
  /** True when `close()` ended the connection, false when the server or network did. */
  declare readonly closedByClient: boolean;
  /** The end of what a stdio server wrote to stderr, secrets redacted. */
  declare readonly stderr: string | undefined;

  constructor(options: {
    server: string;
    closedByClient: boolean;
    stderr?: string;
    cause?: unknown;
  }) {
    const why = options.closedByClient
      ? "the tool set was closed"
      : "the server closed the connection or exited";
    const tail = options.stderr ? `\nServer stderr (end):\n${options.stderr}` : "";
    super({
      name,
      message: `MCP server "${options.server}" is disconnected: ${why}${tail}`,
      cause: options.cause,
      fields: {
        server: options.server,
        closedByClient: options.closedByClient,
        stderr: options.stderr,
      },
    });
  }

  static override isInstance(error: unknown): error is McpDisconnectedError {
    return FrameworkError.hasMarker(error, marker);
  }
}
