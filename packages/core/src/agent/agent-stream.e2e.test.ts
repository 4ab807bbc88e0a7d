import {
  type FakeLLMServer,
  llmRateLimitFault,
  mockToolCall,
  startFakeLLMServer,
} from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import * as weatherTools from "../../test/fixtures/weather-tools.js";
import { ModelCallError } from "../error/model-call-error.js";
import type { ChatMessage } from "../model/chat-model.js";
import { OpenAIChatModel } from "../model/openai-chat-model.js";
import { temporaryDirectory } from "../registry/test-temporary-directory.js";
import { primaryFunction } from "../tool/primary-function.js";
import { Agent, type AgentOptions } from "./agent.js";
import type { AgentEvent } from "./agent-event.js";

// Streaming and conversations through the public API, against the real `openai` client.
const apiKey = "sk-test-stream-0123456789abcdef";
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

function agentOn(fake: FakeLLMServer, options: Partial<AgentOptions> = {}) {
  const llm = new OpenAIChatModel({
    baseURL: fake.baseURL,
    apiKey,
    model: "test-model",
    retryBaseDelayMs: 5,
  });
  return new Agent({
    description: "You are helpful.",
    llm,
    tools: [weatherTools],
    cwd: dir,
    toolsPath: false,
    ...options,
  });
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

const textOf = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === "text-delta" ? [event.text] : []));

const answer = "Hanoi is 21 degrees celsius today.";

describe("Agent.stream", () => {
  it("streams steps, the tool call and its result, and the answer text as deltas", async () => {
    server = await startFakeLLMServer({
      apiKey,
      replies: [{ toolCalls: [mockToolCall("get_weather", { city: "Hanoi" }, "call_w")] }, answer],
    });
    const events = await collect(agentOn(server).stream("Weather in Hanoi?"));

    expect(events.map((event) => event.type)).toEqual([
      "step-start",
      "tool-call",
      "tool-result",
      "step-finish",
      "step-start",
      ...textOf(events).map(() => "text-delta"),
      "step-finish",
      "finish",
    ]);
    expect(textOf(events).length).toBeGreaterThan(1);
    expect(textOf(events).join("")).toBe(answer);
    expect(events[0]).toEqual({ type: "step-start", step: 1 });
    expect(events[1]).toEqual({
      type: "tool-call",
      toolCallId: "call_w",
      toolName: "get_weather",
      arguments: '{"city":"Hanoi"}',
    });
    expect(events[2]).toMatchObject({
      type: "tool-result",
      toolCallId: "call_w",
      toolName: "get_weather",
      output: "Hanoi: 21 degrees celsius",
      isError: false,
    });
    expect(events[3]).toMatchObject({ type: "step-finish", step: 1, finishReason: "tool_calls" });
    const finish = events.at(-1);
    expect(finish?.type === "finish" && finish.result.content).toBe(answer);
    expect(server.chatRequests.every((request) => request.stream === true)).toBe(true);
  });

  it("reports a failed tool call as an error result", async () => {
    server = await startFakeLLMServer({
      apiKey,
      replies: [{ toolCalls: [mockToolCall("no_such_tool", {}, "call_x")] }, "Sorry."],
    });
    const events = await collect(agentOn(server).stream("Do it"));
    expect(events.find((event) => event.type === "tool-result")).toMatchObject({
      toolCallId: "call_x",
      isError: true,
    });
  });

  it("in JSON mode emits no text for a reply that is a tool call, and streams the answer", async () => {
    server = await startFakeLLMServer({
      apiKey,
      replies: [
        `I will check. {"tool_name": "get_weather", "arguments": {"city": "Hanoi"}}`,
        answer,
      ],
    });
    const agent = agentOn(server, { toolCalling: "json" });
    const events = await collect(agent.stream("Weather in Hanoi?"));
    expect(textOf(events).join("")).toBe(answer);
    expect(textOf(events).length).toBeGreaterThan(1);
    expect(events.find((event) => event.type === "tool-result")).toMatchObject({
      toolName: "get_weather",
      output: "Hanoi: 21 degrees celsius",
    });
  });

  it("reports retries with their status and wait", async () => {
    server = await startFakeLLMServer({ apiKey, replies: ["Fine."] });
    server.injectFaults(llmRateLimitFault({ retryAfter: "0" }));
    const events = await collect(agentOn(server).stream("hi"));
    expect(events.find((event) => event.type === "retry")).toEqual({
      type: "retry",
      attempt: 1,
      delayMs: 0,
      status: 429,
    });
    expect(events.at(-1)?.type).toBe("finish");
  });

  it("ends with an error event, without throwing, when the run fails", async () => {
    server = await startFakeLLMServer({ apiKey: "sk-the-right-key-000000", replies: ["never"] });
    const events = await collect(agentOn(server).stream("hi"));
    const last = events.at(-1);
    expect(last?.type).toBe("error");
    expect(last?.type === "error" && ModelCallError.isInstance(last.error)).toBe(true);
  });

  it("cancels the model call when the consumer breaks out of the loop", async () => {
    // Without cancellation the loop would wait out the model's minute of latency.
    server = await startFakeLLMServer({ apiKey, replies: ["late"], latencyMs: 60_000 });
    const seen: AgentEvent[] = [];
    for await (const event of agentOn(server).stream("hi")) {
      seen.push(event);
      if (event.type === "step-start") break;
    }
    expect(seen).toEqual([{ type: "step-start", step: 1 }]);
  });

  it("cancels running tools when the consumer breaks out of the loop", async () => {
    let toolSignal: AbortSignal | undefined;
    const waitForever = primaryFunction(
      {
        name: "wait_forever",
        description: "Never finishes.",
        parameters: z.object({}),
        returns: "str",
      },
      (_args, { signal }) => {
        toolSignal = signal;
        return new Promise<string>(() => {});
      },
    );
    server = await startFakeLLMServer({
      apiKey,
      replies: [{ toolCalls: [mockToolCall("wait_forever", {}, "call_f")] }],
    });
    const agent = agentOn(server, { tools: [waitForever] });
    for await (const event of agent.stream("go")) {
      if (event.type === "tool-call") break;
    }
    expect(toolSignal?.aborted).toBe(true);
  });

  it("stops when the caller's signal fires", async () => {
    server = await startFakeLLMServer({ apiKey, replies: ["late"], latencyMs: 60_000 });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const event of agentOn(server).stream("hi", { signal: controller.signal })) {
      events.push(event);
      if (event.type === "step-start") controller.abort();
    }
    expect(events.map((event) => event.type)).toEqual(["step-start", "error"]);
  });
});

describe("Agent.invoke with onEvent", () => {
  it("delivers the same events as stream, ending with finish", async () => {
    const replies = [
      { toolCalls: [mockToolCall("get_weather", { city: "Hanoi" }, "call_w")] },
      answer,
    ];
    server = await startFakeLLMServer({ apiKey, replies });
    const streamed = await collect(agentOn(server).stream("Weather?"));
    await server.close();
    server = await startFakeLLMServer({ apiKey, replies });
    const delivered: AgentEvent[] = [];
    const result = await agentOn(server).invoke("Weather?", {
      onEvent: (event) => delivered.push(event),
    });
    const shape = (event: AgentEvent) =>
      event.type === "tool-result" ? { ...event, durationMs: 0 } : event.type;
    expect(delivered.map(shape)).toEqual(streamed.map(shape));
    expect(delivered.at(-1)).toEqual({ type: "finish", result });
  });
});

describe("conversations", () => {
  it("carries a conversation over three turns, turn 3 answered from turn 1", async () => {
    const nameFrom = (messages: readonly { role: string; content?: unknown }[]) =>
      messages
        .filter((message) => message.role === "user")
        .map((message) => String(message.content))
        .join(" ")
        .match(/my name is (\w+)/i)?.[1];
    server = await startFakeLLMServer({
      apiKey,
      replies: [
        "Nice to meet you.",
        { toolCalls: [mockToolCall("get_weather", { city: "Hanoi" }, "call_w")] },
        "It is 21 degrees in Hanoi.",
        (request) => `Your name is ${nameFrom(request.messages) ?? "unknown"}.`,
      ],
    });
    const agent = agentOn(server);

    const first = await agent.invoke("Hello, my name is Ada.");
    expect(first.messages).toEqual([
      { role: "user", content: "Hello, my name is Ada." },
      { role: "assistant", content: "Nice to meet you." },
    ]);
    const second = await agent.invoke([
      ...first.messages,
      { role: "user", content: "Weather in Hanoi?" },
    ]);
    expect(second.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    const third: ChatMessage[] = [...second.messages, { role: "user", content: "What's my name?" }];
    const result = await agent.invoke(third);

    expect(result.content).toBe("Your name is Ada.");
    expect(result.messages.every((message) => message.role !== "system")).toBe(true);
    const lastRequest = server.chatRequests.at(-1);
    // The model got the whole conversation behind a fresh system prompt.
    expect(lastRequest?.messages.map((message) => message.role)).toEqual([
      "system",
      ...third.map((message) => message.role),
    ]);
  });
});
