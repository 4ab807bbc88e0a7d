import { FrameworkError } from "@framework/core";

const name = "McpTimeoutError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** An MCP request got no answer in time. The client sent the server a cancellation. */
export class McpTimeoutError extends FrameworkError {
  private readonly [symbol] = true;

  /** The server's label: the `name` option, or the name the server reported. */
  declare readonly server: string;
  /** The MCP method, e.g. `"tools/call"`. */
  declare readonly method: string;
  /** The tool called, for `tools/call`. */
  declare readonly toolName: string | undefined;
  /** The time limit that passed, in milliseconds. */
  declare readonly timeoutMs: number;

  constructor(options: {
    server: string;
    method: string;
    toolName?: string;
    timeoutMs: number;
    cause?: unknown;
  }) {
    const what = options.toolName ? `tool ${options.toolName}` : options.method;
    super({
      name,
      message: `MCP server "${options.server}" did not answer ${what} within ${options.timeoutMs} ms`,
      cause: options.cause,
      fields: {
        server: options.server,
        method: options.method,
        toolName: options.toolName,
        timeoutMs: options.timeoutMs,
      },
    });
  }

  static override isInstance(error: unknown): error is McpTimeoutError {
    return FrameworkError.hasMarker(error, marker);
  }
}
