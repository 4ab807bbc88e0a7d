import { type FrameworkError, registerSecret } from "@framework/core";
import { describe, expect, it } from "vitest";
import { McpConnectError } from "./mcp-connect-error.js";
import { McpDisconnectedError } from "./mcp-disconnected-error.js";
import { McpRequestError } from "./mcp-request-error.js";
import { McpTimeoutError } from "./mcp-timeout-error.js";
import { McpToolError } from "./mcp-tool-error.js";

// Server names, stderr, error data and a tool's structured content come from the server and
// its configuration, so a secret can land in any field: each class must pass its fields
// through FrameworkError's redaction, not assign them itself.
const secret = "mcp-error-fields-secret-6d2f";
registerSecret(secret);
const planted = `leak-${secret}`;
const redacted = "leak-[REDACTED]";

const cases: readonly { error: FrameworkError; fields: Record<string, unknown> }[] = [
  {
    error: new McpConnectError({
      server: planted,
      transport: "stdio",
      reason: planted,
      status: 401,
      stderr: planted,
    }),
    fields: { server: redacted, transport: "stdio", status: 401, stderr: redacted },
  },
  {
    error: new McpDisconnectedError({ server: planted, closedByClient: false, stderr: planted }),
    fields: { server: redacted, closedByClient: false, stderr: redacted },
  },
  {
    error: new McpRequestError({
      server: planted,
      method: "tools/call",
      reason: planted,
      code: -32602,
      data: { detail: [planted] },
    }),
    fields: { server: redacted, method: "tools/call", code: -32602, data: { detail: [redacted] } },
  },
  {
    error: new McpTimeoutError({
      server: planted,
      method: "tools/call",
      toolName: planted,
      timeoutMs: 50,
    }),
    fields: { server: redacted, method: "tools/call", toolName: redacted, timeoutMs: 50 },
  },
  {
    error: new McpToolError({
      server: planted,
      toolName: "lookup",
      text: planted,
      structuredContent: { token: planted },
    }),
    fields: { server: redacted, toolName: "lookup", structuredContent: { token: redacted } },
  },
];

describe("MCP errors", () => {
  it.each(cases.map((entry) => [entry.error.name, entry] as const))(
    "%s redacts a registered secret in its fields and message",
    (_, { error, fields }) => {
      expect(error).toMatchObject(fields);
      expect(error.message).not.toContain(secret);
      expect(JSON.stringify(error)).not.toContain(secret);
    },
  );

  it("leaves out the fields a failure did not have", () => {
    const error = new McpConnectError({ server: "files", transport: "sse", reason: "refused" });
    expect(error.status).toBeUndefined();
    expect(error.stderr).toBeUndefined();
    expect(McpConnectError.isInstance(error)).toBe(true);
  });
});
