import type { McpStdioServer } from "./mcp-server-options.js";

/**
 * Reads a command line such as `npx -y @modelcontextprotocol/server-filesystem "/my docs"` as
 * a stdio server's `command` and `args`, the way a POSIX shell splits words: single quotes
 * keep everything, double quotes and backslashes escape. Nothing is expanded: no variables,
 * globs or pipes (the server is started without a shell). For `--mcp "<command>"` flags.
 */
export function parseMcpCommand(commandLine: string): McpStdioServer {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < commandLine.length; index++) {
    const char = commandLine.charAt(index);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (char === "\\" && index + 1 < commandLine.length) {
      index += 1;
      word = (word ?? "") + commandLine.charAt(index);
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= "";
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? "") + char;
    }
  }
  if (quote) throw new SyntaxError(`Unclosed ${quote} in MCP server command: ${commandLine}`);
  if (word !== undefined) words.push(word);
  const [command, ...args] = words;
  if (!command) throw new SyntaxError("The MCP server command is empty");
  return { command, args };
}
