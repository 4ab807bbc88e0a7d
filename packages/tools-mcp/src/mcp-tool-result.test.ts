import { describe, expect, it } from "vitest";
import { mcpToolResultText, toMcpToolResult } from "./mcp-tool-result.js";

describe("toMcpToolResult", () => {
  it("joins text blocks and notes what is not text", () => {
    const result = toMcpToolResult({
      content: [
        { type: "text", text: "first" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inside a.txt" } },
        {
          type: "resource",
          resource: { uri: "file:///b.bin", mimeType: "application/zip", blob: "AAAA" },
        },
        { type: "audio", data: "AAE=", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///c", name: "c" },
      ],
    });
    expect(result.text).toBe(
      [
        "first",
        "inside a.txt",
        "[resource: file:///b.bin, application/zip, 3 bytes]",
        "[audio: audio/wav, 2 bytes]",
        "[resource link: file:///c (c)]",
      ].join("\n\n"),
    );
    expect(result.content).toHaveLength(5);
    expect(result).not.toHaveProperty("structuredContent");
  });

  it("keeps structured content", () => {
    const result = toMcpToolResult({ content: [], structuredContent: { count: 3 } });
    expect(result).toEqual({ text: "", structuredContent: { count: 3 }, content: [] });
  });

  it("reads the 2024-10-07 form (toolResult) as JSON text", () => {
    expect(toMcpToolResult({ toolResult: { ok: true } }).text).toBe('{"ok":true}');
  });
});

describe("mcpToolResultText", () => {
  it("is the text when there is some", () => {
    expect(mcpToolResultText({ text: "hi", structuredContent: { a: 1 }, content: [] })).toBe("hi");
  });

  it("is the structured content as JSON when there is no text", () => {
    expect(mcpToolResultText({ text: "", structuredContent: { a: 1 }, content: [] })).toBe(
      '{"a":1}',
    );
  });

  it("says so when the tool returned nothing", () => {
    expect(mcpToolResultText({ text: "", content: [] })).toBe("(the tool returned no content)");
  });
});
