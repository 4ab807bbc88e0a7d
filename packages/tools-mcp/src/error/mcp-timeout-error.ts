import { FrameworkError } from "@framework/core";

const name = "McpTimeoutError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** An MCP request got no answer in time. The client sent the server a cancellation. */
export class McpTimeoutError extends FrameworkError {
  private readonly [symbol] = true;

  readonly server: string;
  /** The MCP method, e.g. `"tools/call"`. */
  readonly method: string;
  /** The tool called, for `tools/call`. */
  readonly toolName: string | undefined;
  readonly timeoutMs: number;

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
    });
    this.server = options.server;
    this.method = options.method;
    this.toolName = options.toolName;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(error: unknown): error is McpTimeoutError {
    return FrameworkError.hasMarker(error, marker);
  }
}
