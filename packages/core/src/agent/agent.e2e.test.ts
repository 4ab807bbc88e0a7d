import {
  createCapturingLogger,
  type FakeLLMServer,
  llmRateLimitFault,
  mockToolCall,
  startFakeLLMServer,
} from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import * as weatherTools from "../../test/fixtures/weather-tools.js";
import { AbortedError } from "../error/aborted-error.js";
import { ModelCallError } from "../error/model-call-error.js";
import { OpenAIChatModel } from "../model/openai-chat-model.js";
import { temporaryDirectory } from "../registry/test-temporary-directory.js";
import { primaryFunction } from "../tool/primary-function.js";
import { Agent } from "./agent.js";

// The whole path a user takes: Agent -> OpenAIChatModel -> the real `openai` client -> HTTP.
const apiKey = "sk-test-e2e-0123456789abcdef";
let server: FakeLLMServer;
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(async () => {
  await server?.close();
  await cleanup();
});

function agentOn(
  fake: FakeLLMServer,
  tools = [weatherTools] as Parameters<typeof Agent.create>[0]["tools"],
) {
  const logger = createCapturingLogger();
  const llm = new OpenAIChatModel({
    baseURL: fake.baseURL,
    apiKey,
    model: "test-model",
    retryBaseDelayMs: 5,
    logger,
  });
  return {
    logger,
    agent: new Agent({ description: "You are helpful.", llm, tools, cwd: dir, logger }),
  };
}

describe("Agent with OpenAIChatModel against the fake LLM server", () => {
  it("runs a multi-iteration tool loop end to end", async () => {
    const events: string[] = [];
    const timed = (name: string, ms: number) =>
      primaryFunction(
        {
          name,
          description: `${name} tool`,
          parameters: z.object({ q: z.string() }),
          returns: "str",
        },
        async ({ q }) => {
          events.push(`start ${name}`);
          await new Promise((resolve) => setTimeout(resolve, ms));
          events.push(`end ${name}`);
          return `${name}:${q}`;
        },
      );
    server = await startFakeLLMServer({
      apiKey,
      replies: [
        {
          toolCalls: [
            mockToolCall("slow", { q: "a" }, "call_a"),
            mockToolCall("fast", { q: "b" }, "call_b"),
          ],
        },
        { toolCalls: [mockToolCall("get_weather", { city: "Hanoi" }, "call_c")] },
        "Done: slow:a, fast:b, and Hanoi is 21 degrees.",
      ],
    });
    const { agent, logger } = agentOn(server, [weatherTools, timed("slow", 40), timed("fast", 5)]);
    const result = await agent.invoke("Run everything", { userId: "tester" });

    expect(result.content).toBe("Done: slow:a, fast:b, and Hanoi is 21 degrees.");
    expect(result.iterations).toBe(3);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(events).toEqual(["start slow", "start fast", "end fast", "end slow"]);

    const [first, second, third] = server.chatRequests;
    expect(first?.model).toBe("test-model");
    expect(first?.tools?.map((t) => t.function.name)).toEqual([
      "get_weather",
      "add",
      "slow",
      "fast",
    ]);
    expect(second?.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "slow", arguments: '{"q":"a"}' } },
          { id: "call_b", type: "function", function: { name: "fast", arguments: '{"q":"b"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "slow:a" },
      { role: "tool", tool_call_id: "call_b", content: "fast:b" },
    ]);
    expect(third?.messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_c",
      content: "Hanoi: 21 degrees celsius",
    });

    expect(
      logger.infos.filter(
        (l) => !l.startsWith("Registered") && !l.startsWith("Completed registration"),
      ),
    ).toEqual([
      "No authentication card provided, skipping authentication",
      "I'am chatting with tester",
      "Tool calling iteration 1/10",
      'Executing tool call: {"tool_name":"slow","tool_type":"module","module_path":"inline","arguments":{"q":"a"}}',
      'Executing tool call: {"tool_name":"fast","tool_type":"module","module_path":"inline","arguments":{"q":"b"}}',
      'Completed executing module tool fast({"q":"b"})',
      'Completed executing module tool slow({"q":"a"})',
      "Tool calling iteration 2/10",
      'Executing tool call: {"tool_name":"get_weather","tool_type":"module","module_path":"inline","arguments":{"city":"Hanoi"}}',
      'Completed executing module tool get_weather({"city":"Hanoi","unit":"celsius"})',
      "Tool calling iteration 3/10",
      "No more tool calls needed. Completed in 3 iterations.",
    ]);
  });

  it("retries a 429 twice, logging each wait, then succeeds", async () => {
    server = await startFakeLLMServer({ apiKey, replies: ["Fine."] });
    server.injectFaults(llmRateLimitFault({ retryAfter: "0" }), llmRateLimitFault());
    const { agent, logger } = agentOn(server);
    await expect(agent.invoke("hi")).resolves.toMatchObject({ content: "Fine." });
    expect(server.requests).toHaveLength(3);
    const waits = logger.entries.filter(
      (e) => e.level === "warn" && e.message.startsWith("Retrying request to /chat/completions"),
    );
    expect(waits).toHaveLength(2);
    expect(waits[0]?.message).toContain("HTTP 429");
  });

  it("fails fast with a clear, typed error on 401, without leaking the key", async () => {
    server = await startFakeLLMServer({ apiKey: "sk-the-right-key-000000", replies: ["never"] });
    const { agent } = agentOn(server);
    const error = await agent.invoke("hi").catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect((error as ModelCallError).statusCode).toBe(401);
    expect((error as ModelCallError).retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
    expect(
      JSON.stringify({ ...(error as object), message: (error as Error).message }),
    ).not.toContain(apiKey);
  });

  it("stops when aborted while the model is thinking", async () => {
    server = await startFakeLLMServer({ apiKey, replies: ["slow answer"], latencyMs: 5_000 });
    const { agent } = agentOn(server);
    const controller = new AbortController();
    const run = agent.invoke("hi", { signal: controller.signal });
    await agent.ready;
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(run).rejects.toSatisfy(AbortedError.isInstance);
  });
});
