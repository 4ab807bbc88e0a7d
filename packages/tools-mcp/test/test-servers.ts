import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, type ChatModel, type ToolSource } from "@framework/core";
import { createCapturingLogger } from "@framework/testing";
import { vi } from "vitest";
import type { McpStdioServer } from "../src/mcp-server-options.js";
import type { McpToolSet } from "../src/mcp-tool-set.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const serverScript = fileURLToPath(new URL("./fixtures/stdio-test-server.ts", import.meta.url));

/** Options starting the test server as a child process (TypeScript, run through tsx). */
export function stdioTestServer(extraArgs: string[] = []): McpStdioServer {
  return {
    command: process.execPath,
    args: ["--import", "tsx", serverScript, ...extraArgs],
    cwd: packageDir,
  };
}

/** What the test server saw, read through its `server_log` tool. */
export async function serverLog(set: McpToolSet): Promise<{ calls: string[]; cancelled: number }> {
  const result = (await set.tools.server_log?.()) as { text: string };
  return JSON.parse(result.text);
}

/**
 * Asks the server for its log until `done` holds. Each try is a round trip to the server; the
 * long timeout only guards against a hang.
 */
async function untilServerLog(
  set: McpToolSet,
  done: (log: { calls: string[]; cancelled: number }) => boolean,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!done(await serverLog(set))) throw new Error("the server has not got there yet");
    },
    { timeout: 20_000, interval: 20 },
  );
}

/** Waits until the server has started `tool`. */
export const untilServerRan = (set: McpToolSet, tool: string) =>
  untilServerLog(set, (log) => log.calls.includes(tool));

/** Waits until the server has seen `count` cancelled calls. */
export const untilCancelled = (set: McpToolSet, count: number) =>
  untilServerLog(set, (log) => log.cancelled >= count);

/** An agent in a temporary directory; `cleanup` removes the directory. */
export async function agentWith(
  llm: ChatModel,
  tools: ToolSource[],
): Promise<{ agent: Agent; cleanup: () => Promise<void> }> {
  const cwd = await mkdtemp(join(tmpdir(), "tools-mcp-test-"));
  const agent = await Agent.create({
    description: "Test agent.",
    llm,
    tools,
    cwd,
    logger: createCapturingLogger(),
  });
  return { agent, cleanup: () => rm(cwd, { recursive: true, force: true }) };
}
