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

  /** The server's label: the `name` option, or the name the server reported. */
  declare readonly server: string;
  /** The MCP method, e.g. `"tools/call"`. */
  declare readonly method: string;
  /** The JSON-RPC error code, when the server sent one. */
  declare readonly code: number | undefined;
  /** The error's `data`, when the server sent some. */
  declare readonly data: unknown;

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
      fields: {
        server: options.server,
        method: options.method,
        code: options.code,
        data: options.data,
      },
    });
  }

  static override isInstance(error: unknown): error is McpRequestError {
    return FrameworkError.hasMarker(error, marker);
  }
}
