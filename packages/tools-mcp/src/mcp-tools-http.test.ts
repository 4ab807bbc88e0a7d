import { createCapturingLogger } from "@framework/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startTestHttpServer, type TestHttpServer } from "../test/fixtures/test-mcp-server.js";
import { McpConnectError } from "./error/mcp-connect-error.js";
import { McpDisconnectedError } from "./error/mcp-disconnected-error.js";
import { mcpTools } from "./mcp-tools.js";

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const echo = async (tools: Record<string, unknown>, text: string) =>
  (tools.echo as (args: { text: string }) => Promise<{ text: string }>)({ text });

describe("mcpTools over HTTP", () => {
  it("lists and calls tools over Streamable HTTP", async () => {
    server = await startTestHttpServer();
    const set = await mcpTools({ url: server.url });
    try {
      expect(set.server).toBe("test-server");
      expect(Object.keys(set.tools)).toContain("add");
      expect(await echo(set.tools, "over http")).toMatchObject({ text: "over http" });
      expect(server.log.calls).toEqual(["echo"]);
      expect(server.requests.every((request) => request.path === "/mcp")).toBe(true);
    } finally {
      await set.close();
    }
    expect(server.requests.at(-1)?.method).toBe("DELETE");
  });

  it("sends the given headers, and a wrong token fails to connect without showing it", async () => {
    const token = "mcp-test-token-0123456789";
    server = await startTestHttpServer({ token });
    const set = await mcpTools({ url: server.url, headers: { Authorization: `Bearer ${token}` } });
    await set.close();
    expect(server.requests[0]?.authorization).toBe(`Bearer ${token}`);

    const wrong = "mcp-wrong-token-9876543210";
    const logger = createCapturingLogger();
    const error = await mcpTools({
      url: server.url,
      headers: { Authorization: `Bearer ${wrong}` },
      logger,
    }).catch((e: unknown) => e);
    expect(McpConnectError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, transport: "streamable-http" });
    expect((error as Error).message).not.toContain(wrong);
    expect(logger.lines.join("\n")).not.toContain(wrong);
  });

  it("fails a call in flight, and later ones, when the HTTP server goes down", async () => {
    server = await startTestHttpServer();
    const logger = createCapturingLogger();
    // Far beyond the SDK's reconnection attempts (about 2.5 s): a timeout would mean the
    // dropped connection went unnoticed.
    const set = await mcpTools({ url: server.url, timeoutMs: 25_000, logger });
    try {
      const running = set.tools.wait_for_cancel?.({}).catch((e: unknown) => e);
      await vi.waitFor(() => expect(server?.log.calls).toContain("wait_for_cancel"), {
        timeout: 20_000,
      });
      await server.kill();
      const error = await running;
      expect(McpDisconnectedError.isInstance(error)).toBe(true);
      expect(set.connected).toBe(false);
      await expect(echo(set.tools, "anyone?")).rejects.toSatisfy(McpDisconnectedError.isInstance);
      expect(logger.lines.join("\n")).toContain("MCP server test-server disconnected");
    } finally {
      await set.close();
    }
  }, 300_000);

  it("falls back to the older SSE transport when the server answers 405", async () => {
    server = await startTestHttpServer({ legacy: true });
    const logger = createCapturingLogger();
    const set = await mcpTools({ url: server.url, logger });
    try {
      expect(await echo(set.tools, "over sse")).toMatchObject({ text: "over sse" });
      expect(server.requests.slice(0, 2)).toMatchObject([
        { method: "POST", path: "/sse" },
        { method: "GET", path: "/sse" },
      ]);
      expect(logger.lines.join("\n")).toContain("does not speak Streamable HTTP (HTTP 405)");
    } finally {
      await set.close();
    }
  });

  it("does not fall back when Streamable HTTP is pinned", async () => {
    server = await startTestHttpServer({ legacy: true });
    const error = await mcpTools({ url: server.url, transport: "streamable-http" }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "McpConnectError", status: 405 });
  });

  it("fails with McpConnectError when nothing listens at the URL", async () => {
    server = await startTestHttpServer();
    const { url } = server;
    await server.close();
    server = undefined;
    const error = await mcpTools({ url }).catch((e: unknown) => e);
    expect(McpConnectError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ server: new URL(url).host, transport: "streamable-http" });
  });
});
