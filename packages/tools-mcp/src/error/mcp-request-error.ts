import { FrameworkError } from "@framework/core";

const name = "McpRequestError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The MCP server answered a request with a protocol error (a JSON-RPC error: an unknown tool,
 * invalid parameters, an internal error), or with a reply the client could not read.
 */
export class McpRequestError extends FrameworkError {
  private readonly [symbol] = true;

  readonly server: string;
  /** The MCP method, e.g. `"tools/call"`. */
  readonly method: string;
  /** The JSON-RPC error code, when the server sent one. */
  readonly code: number | undefined;
  /** The error's `data`, when the server sent some. */
  readonly data: unknown;

  constructor(options: {
    server: string;
    method: string;
    reason: string;
    code?: number;
    data?: unknown;
    cause?: unknown;
  }) {
    const code = options.code === undefined ? "" : ` (code ${options.code})`;
    super({
      name,
      message: `MCP server "${options.server}" failed ${options.method}: ${options.reason}${code}`,
      cause: options.cause,
    });
    this.server = options.server;
    this.method = options.method;
    this.code = options.code;
    this.data = options.data;
  }

  static override isInstance(error: unknown): error is McpRequestError {
    return FrameworkError.hasMarker(error, marker);
  }
}
