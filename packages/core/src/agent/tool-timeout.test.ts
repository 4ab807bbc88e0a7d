import { createCapturingLogger, MockChatModel, mockToolCall } from "@framework/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AbortedError } from "../error/aborted-error.js";
import { ToolTimeoutError } from "../error/tool-timeout-error.js";
import { DEFAULT_TOOL_TIMEOUT_MS } from "../tool/execute-tool.js";
import { type AnyPrimaryFunction, primaryFunction } from "../tool/primary-function.js";
import { Agent } from "./agent.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A tool that never settles and never looks at its signal; `started` resolves once it runs. */
function deafTool(name: string, timeoutMs?: number) {
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const tool = primaryFunction(
    {
      name,
      description: "Never answers.",
      parameters: z.object({}),
      returns: "str",
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    },
    () => {
      markStarted();
      return new Promise<string>(() => {});
    },
  );
  return { tool, started };
}

function agentWith(tools: AnyPrimaryFunction[], toolTimeoutMs?: number) {
  const llm = new MockChatModel([
    { toolCalls: tools.map((tool) => mockToolCall(tool.name, {})) },
    "gave up waiting",
  ]);
  const agent = new Agent({
    description: "d",
    llm,
    tools,
    toolsPath: false,
    logger: createCapturingLogger(),
    ...(toolTimeoutMs === undefined ? {} : { toolTimeoutMs }),
  });
  return { agent, llm };
}

describe("tool time limits", () => {
  it("default to 60 seconds", () => {
    expect(DEFAULT_TOOL_TIMEOUT_MS).toBe(60_000);
  });

  it("end a tool that ignores its signal at the agent's toolTimeoutMs, as an error result", async () => {
    vi.useFakeTimers();
    const { tool } = deafTool("deaf");
    const { agent } = agentWith([tool], 1_000);
    const run = agent.invoke("go");
    await vi.advanceTimersByTimeAsync(1_000);
    const result = await run;
    expect(result.content).toBe("gave up waiting");
    const [call] = result.toolCalls;
    expect(ToolTimeoutError.isInstance(call?.error)).toBe(true);
    expect(call?.error).toMatchObject({ toolName: "deaf", timeoutMs: 1_000 });
    expect(call?.output).toBe('Error: Tool "deaf" did not finish within 1000 ms.');
  });

  it("take a tool's own timeoutMs over the agent's", async () => {
    vi.useFakeTimers();
    const { tool } = deafTool("quick", 10);
    const { agent } = agentWith([tool], 1_000_000);
    const run = agent.invoke("go");
    await vi.advanceTimersByTimeAsync(10);
    const [call] = (await run).toolCalls;
    expect(call?.error).toMatchObject({ name: "ToolTimeoutError", timeoutMs: 10 });
  });

  it("abort the tool's signal when the time is up", async () => {
    vi.useFakeTimers();
    let seen: AbortSignal | undefined;
    const listening = primaryFunction(
      { name: "listening", description: "d", parameters: z.object({}), returns: "str" },
      (_args, { signal }) => {
        seen = signal;
        return new Promise<string>(() => {});
      },
    );
    const { agent } = agentWith([listening], 50);
    const run = agent.invoke("go");
    await vi.advanceTimersByTimeAsync(50);
    await run;
    expect(seen?.aborted).toBe(true);
  });

  it("let abort() end invoke at once even while a tool ignores its signal", async () => {
    const { tool, started } = deafTool("deaf");
    const { agent } = agentWith([tool]);
    const controller = new AbortController();
    const run = agent.invoke("go", { signal: controller.signal });
    await started;
    controller.abort(new Error("user pressed stop"));
    await expect(run).rejects.toSatisfy(AbortedError.isInstance);
  });
});
