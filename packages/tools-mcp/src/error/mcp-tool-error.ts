import { FrameworkError } from "@framework/core";

const name = "McpToolError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * An MCP tool ran and reported failure (`isError: true`). The message is the tool's own
 * text, so the model reads what went wrong and can try again differently.
 */
export class McpToolError extends FrameworkError {
  private readonly [symbol] = true;

  /** The server's label: the `name` option, or the name the server reported. */
  declare readonly server: string;
  /** The tool's name on the server (without any prefix). */
  declare readonly toolName: string;
  /** The structured content the tool returned with its error, if any. */
  declare readonly structuredContent: Record<string, unknown> | undefined;

  constructor(options: {
    server: string;
    toolName: string;
    text: string;
    structuredContent?: Record<string, unknown>;
  }) {
    super({
      name,
      message: options.text || `MCP tool ${options.toolName} reported an error`,
      fields: {
        server: options.server,
        toolName: options.toolName,
        structuredContent: options.structuredContent,
      },
    });
  }

  static override isInstance(error: unknown): error is McpToolError {
    return FrameworkError.hasMarker(error, marker);
  }
}
