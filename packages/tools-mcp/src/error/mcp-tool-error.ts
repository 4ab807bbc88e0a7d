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

  readonly server: string;
  /** The tool's name on the server (without any prefix). */
  readonly toolName: string;
  /** The structured content the tool returned with its error, if any. */
  readonly structuredContent: Record<string, unknown> | undefined;

  constructor(options: {
    server: string;
    toolName: string;
    text: string;
    structuredContent?: Record<string, unknown>;
  }) {
    super({ name, message: options.text || `MCP tool ${options.toolName} reported an error` });
    this.server = options.server;
    this.toolName = options.toolName;
    this.structuredContent = options.structuredContent;
  }

  static override isInstance(error: unknown): error is McpToolError {
    return FrameworkError.hasMarker(error, marker);
  }
}
