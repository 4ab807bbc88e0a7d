import { AbortedError, type AnyPrimaryFunction, type ChatRequest } from "@framework/core";
import { createCapturingLogger, MockChatModel, mockToolCall } from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  agentWith,
  serverLog,
  stdioTestServer,
  untilCancelled,
  untilServerRan,
} from "../test/test-servers.js";
import { McpConnectError } from "./error/mcp-connect-error.js";
import { McpDisconnectedError } from "./error/mcp-disconnected-error.js";
import { McpRequestError } from "./error/mcp-request-error.js";
import { McpTimeoutError } from "./error/mcp-timeout-error.js";
import { McpToolError } from "./error/mcp-tool-error.js";
import type { McpToolSet } from "./mcp-tool-set.js";
import { mcpTools } from "./mcp-tools.js";

/** The tool message the model was sent for call `id`, from the request that followed it. */
function toolMessage(request: ChatRequest | undefined, id: string): string | undefined {
  const message = request?.messages.find(
    (entry) => entry.role === "tool" && entry.toolCallId === id,
  );
  return message?.role === "tool" ? message.content : undefined;
}

/** Calls one of the set's tools directly, as a program (not a model) would. */
function call(
  set: McpToolSet,
  name: string,
  args: Record<string, unknown> = {},
  context: { signal?: AbortSignal } = {},
) {
  const tool = set.tools[name];
  if (!tool) throw new Error(`no tool ${name}`);
  return tool(args, context);
}

describe("mcpTools over stdio", () => {
  let set: McpToolSet;
  beforeAll(async () => {
    set = await mcpTools({ ...stdioTestServer(), logger: createCapturingLogger() });
  });
  afterAll(() => set.close());

  it("lists the server's tools with their descriptions and JSON Schemas", async () => {
    expect(set.server).toBe("test-server");
    expect(set.modulePath).toBe("mcp:test-server");
    expect(set.instructions).toBe("Call server_log to see what the server did.");
    expect(Object.keys(set.tools)).toEqual(
      expect.arrayContaining(["echo", "add", "fail", "wait_for_cancel", "big", "swap_tools"]),
    );
    const { agent, cleanup } = await agentWith(new MockChatModel(["ok"]), [set]);
    try {
      const [definition] = (await agent.toolRegistry.definitions()).filter(
        (entry) => entry.name === "add",
      );
      expect(definition).toMatchObject({
        description: "Adds two numbers.",
        parameters: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      });
      expect(agent.toolRegistry.find("add")?.record).toMatchObject({
        module_path: "mcp:test-server",
        tool_type: "module",
        arguments: { a: "number", b: "number" },
      });
    } finally {
      await cleanup();
    }
  });

  it("keeps a tool's function when a refresh finds its definition unchanged", async () => {
    const before = set.tools.add;
    await set.refresh();
    expect(set.tools.add).toBe(before);
  });

  it("calls a tool and returns its text and structured content", async () => {
    expect(await call(set, "echo", { text: "hello" })).toEqual({
      text: "hello",
      content: [{ type: "text", text: "hello" }],
    });
    expect(await call(set, "add", { a: 2, b: 3 })).toMatchObject({
      text: "2 + 3 = 5",
      structuredContent: { sum: 5 },
    });
    expect(await call(set, "stats")).toEqual({
      text: "",
      structuredContent: { count: 3 },
      content: [],
    });
  });

  it("describes content the model cannot read as text", async () => {
    expect(await call(set, "picture")).toMatchObject({
      text: "[image: image/png, 6 bytes]\n\n[resource link: file:///report.pdf (report)]",
    });
  });

  it("rejects arguments that fail the input schema before calling the server", async () => {
    const error = await call(set, "notify", { to: "not-an-email", note: "x".repeat(30) }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ name: "ToolArgumentsError" });
    expect((error as { issues: unknown[] }).issues).toEqual(
      expect.arrayContaining([
        { path: "to", message: 'must match format "email"' },
        { path: "note", message: "must NOT have more than 20 characters" },
      ]),
    );
    await expect(call(set, "add", { a: 1 })).rejects.toMatchObject({
      issues: [{ path: "b", message: "is required" }],
    });
    expect((await serverLog(set)).calls).not.toContain("notify");
  });

  it("turns an isError result into McpToolError with the tool's text", async () => {
    const error = await call(set, "fail", { reason: "disk full" }).catch((e: unknown) => e);
    expect(McpToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ message: "disk full", toolName: "fail", server: "test-server" });
  });

  it("turns a JSON-RPC error into McpRequestError with its code", async () => {
    const error = await call(set, "needs_browser").catch((e: unknown) => e);
    expect(McpRequestError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ method: "tools/call", code: -32042 });
    expect((error as Error).message).toContain("Authorization is needed first");
  });

  it("cancels the request on the server when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const running = call(set, "wait_for_cancel", {}, { signal: controller.signal });
    await untilServerRan(set, "wait_for_cancel");
    const before = (await serverLog(set)).cancelled;
    controller.abort(new Error("user pressed stop"));
    const error = await running.catch((e: unknown) => e);
    expect(AbortedError.isInstance(error)).toBe(true);
    await untilCancelled(set, before + 1);
  });

  it("gives the model a huge result cut by the agent's output limits", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("big", { chars: 100_000 }, "call_big")] },
      "It is long.",
    ]);
    const { agent, cleanup } = await agentWith(llm, [set]);
    try {
      const result = await agent.invoke("Get the big text");
      const sent = toolMessage(llm.calls[1], "call_big") ?? "";
      expect(sent.length).toBeLessThan(21_000);
      expect(sent).toMatch(/\[truncated: showing 20000 of 100000 characters\]$/);
      expect(result.content).toBe("It is long.");
    } finally {
      await cleanup();
    }
  });

  it("sends the model tool errors and bad arguments as error results, and goes on", async () => {
    const llm = new MockChatModel([
      {
        toolCalls: [
          mockToolCall("fail", { reason: "quota exceeded" }, "call_fail"),
          mockToolCall("add", { a: "one", b: 2 }, "call_add"),
          mockToolCall("add", { a: 1, b: 2 }, "call_ok"),
        ],
      },
      "Done.",
    ]);
    const { agent, cleanup } = await agentWith(llm, [set]);
    try {
      const result = await agent.invoke("Try things");
      expect(result.content).toBe("Done.");
      expect(toolMessage(llm.calls[1], "call_fail")).toBe(
        'Error: Tool "fail" failed: quota exceeded',
      );
      expect(toolMessage(llm.calls[1], "call_add")).toBe(
        "Error: Invalid arguments for tool add: a: must be number",
      );
      expect(toolMessage(llm.calls[1], "call_ok")).toBe("1 + 2 = 3");
    } finally {
      await cleanup();
    }
  });
});

describe("mcpTools options", () => {
  it("prefixes tool names and still calls the server's tool", async () => {
    const set = await mcpTools({ ...stdioTestServer(), prefix: "test", name: "tests" });
    try {
      expect(set.server).toBe("tests");
      expect(Object.keys(set.tools)).toContain("test_echo");
      expect(Object.keys(set.tools)).not.toContain("echo");
      expect(await call(set, "test_echo", { text: "via prefix" })).toMatchObject({
        text: "via prefix",
      });
    } finally {
      await set.close();
    }
  });

  it("passes the given environment, and not this process's secrets", async () => {
    process.env.FRAMEWORK_TEST_PARENT_TOKEN = "parent-only-value";
    const set = await mcpTools({ ...stdioTestServer(), env: { GREETING: "xin chao" } });
    try {
      expect(await call(set, "env", { name: "GREETING" })).toMatchObject({ text: "xin chao" });
      expect(await call(set, "env", { name: "FRAMEWORK_TEST_PARENT_TOKEN" })).toMatchObject({
        text: "(unset)",
      });
    } finally {
      delete process.env.FRAMEWORK_TEST_PARENT_TOKEN;
      await set.close();
    }
  });

  it("times a call out, cancelling it on the server", async () => {
    // The clock stands still while the server starts, lists its tools and begins the call, which
    // can take longer than 200 ms on a busy machine; then it moves past the call's limit.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let set: McpToolSet | undefined;
    try {
      set = await mcpTools({ ...stdioTestServer(), timeoutMs: 200 });
      const running = call(set, "wait_for_cancel").catch((e: unknown) => e);
      while (!(await serverLog(set)).calls.includes("wait_for_cancel")) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      await vi.advanceTimersByTimeAsync(200);
      vi.useRealTimers();
      const error = await running;
      expect(McpTimeoutError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ toolName: "wait_for_cancel", timeoutMs: 200 });
      await untilCancelled(set, 1);
    } finally {
      vi.useRealTimers();
      await set?.close();
    }
  });
});

describe("mcpTools lifecycle", () => {
  it("fails to connect with McpConnectError when the command does not exist", async () => {
    const error = await mcpTools({ command: "framework-no-such-mcp-server" }).catch(
      (e: unknown) => e,
    );
    expect(McpConnectError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      server: "framework-no-such-mcp-server",
      transport: "stdio",
      message: expect.stringContaining("the command was not found"),
    });
  });

  it("shows the end of the server's stderr when it exits before the handshake", async () => {
    const token = "server-token-5f2c9a1e7b";
    const error = await mcpTools({
      ...stdioTestServer(["--fail-at-start"]),
      env: { TEST_SERVER_TOKEN: token },
    }).catch((e: unknown) => e);
    expect(McpConnectError.isInstance(error)).toBe(true);
    expect((error as McpConnectError).stderr).toContain("missing configuration file");
    expect((error as McpConnectError).stderr).toContain("(token [REDACTED])");
    expect((error as Error).message).not.toContain(token);
    expect((error as Error).message).toContain("closed the connection before the MCP handshake");
  });

  it("fails a call in flight and every later one when the server is killed", async () => {
    const logger = createCapturingLogger();
    const set = await mcpTools({ ...stdioTestServer(), logger });
    try {
      const pid = Number(((await call(set, "pid")) as { text: string }).text);
      const running = call(set, "wait_for_cancel");
      await untilServerRan(set, "wait_for_cancel");
      process.kill(pid, "SIGKILL");
      const error = await running.catch((e: unknown) => e);
      expect(McpDisconnectedError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ closedByClient: false, server: "test-server" });
      expect(set.connected).toBe(false);
      await expect(call(set, "echo", { text: "still there?" })).rejects.toSatisfy(
        McpDisconnectedError.isInstance,
      );
      expect(logger.lines.join("\n")).toContain("MCP server test-server disconnected");
    } finally {
      await set.close();
    }
  });

  it("lets the agent go on with an error result when the server crashes mid-call", async () => {
    const set = await mcpTools(stdioTestServer());
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("crash", {}, "call_crash")] },
      { toolCalls: [mockToolCall("echo", { text: "again" }, "call_echo")] },
      "The tool server is down.",
    ]);
    const { agent, cleanup } = await agentWith(llm, [set]);
    try {
      const result = await agent.invoke("Crash it");
      expect(result.content).toBe("The tool server is down.");
      const crashed = toolMessage(llm.calls[1], "call_crash") ?? "";
      expect(crashed).toMatch(
        /^Error: Tool "crash" failed: MCP server "test-server" is disconnected/,
      );
      expect(crashed).toContain("fatal: crashed on purpose");
      expect(toolMessage(llm.calls[2], "call_echo")).toMatch(/is disconnected/);
    } finally {
      await cleanup();
      await set.close();
    }
  });

  it("closes: the process ends, calls fail, and closing again is harmless", async () => {
    const set = await mcpTools(stdioTestServer());
    const pid = Number(((await call(set, "pid")) as { text: string }).text);
    await set[Symbol.asyncDispose]();
    await set.close();
    expect(set.connected).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
    const error = await call(set, "echo", { text: "x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "McpDisconnectedError", closedByClient: true });
  });

  it("refreshes its tools on tools/list_changed, and the agent offers the new list", async () => {
    let changed: (tools: readonly AnyPrimaryFunction[]) => void = () => {};
    const whenChanged = new Promise<readonly AnyPrimaryFunction[]>((resolve) => {
      changed = resolve;
    });
    const set = await mcpTools({ ...stdioTestServer(), onToolsChanged: (tools) => changed(tools) });
    const llm = new MockChatModel(["first", "second"]);
    const { agent, cleanup } = await agentWith(llm, [set]);
    try {
      await agent.invoke("one");
      const offered = (index: number) => (llm.calls[index]?.tools ?? []).map((tool) => tool.name);
      expect(offered(0)).toContain("echo");
      expect(offered(0)).not.toContain("late_tool");

      await call(set, "swap_tools");
      const tools = await whenChanged;
      expect(tools.map((tool) => tool.name)).toContain("late_tool");
      expect(Object.keys(set.tools)).not.toContain("echo");

      await agent.invoke("two");
      expect(offered(1)).toContain("late_tool");
      expect(offered(1)).not.toContain("echo");
      expect(await call(set, "late_tool")).toMatchObject({ text: "late" });
    } finally {
      await cleanup();
      await set.close();
    }
  });
});
