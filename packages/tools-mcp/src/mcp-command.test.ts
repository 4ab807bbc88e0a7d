import { describe, expect, it } from "vitest";
import { parseMcpCommand } from "./mcp-command.js";

describe("parseMcpCommand", () => {
  it("splits words as a shell does, without expanding anything", () => {
    expect(
      parseMcpCommand(`npx -y  @scope/server "/my docs" 'it''s' a\\ b "say \\"hi\\"" $HOME ""`),
    ).toEqual({
      command: "npx",
      args: ["-y", "@scope/server", "/my docs", "its", "a b", 'say "hi"', "$HOME", ""],
    });
  });

  it("rejects an empty command and an unclosed quote", () => {
    expect(() => parseMcpCommand("   ")).toThrow("The MCP server command is empty");
    expect(() => parseMcpCommand(`node "server.js`)).toThrow(/Unclosed "/);
  });
});
