import {
  type FakeLLMServer,
  MockChatModel,
  mockToolCall,
  startFakeLLMServer,
} from "@framework/testing";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import * as weatherTools from "../../test/fixtures/weather-tools.js";
import { Agent, type AgentOptions } from "../agent/agent.js";
import { silentLogger } from "../log/logger.js";
import { registerSecret } from "../log/redact.js";
import { OpenAIChatModel } from "../model/openai-chat-model.js";
import { primaryFunction } from "../tool/primary-function.js";
import { tracedChatModel } from "./agent-tracing.js";
import { installTestTracing, onlySpan, parentOf } from "./test-tracing.js";

const exporter = installTestTracing();
const secret = "sk-tracing-secret-0123456789";
beforeAll(() => registerSecret(secret));
beforeEach(() => exporter.reset());
afterEach(() => exporter.reset());

function agentWith(llm: MockChatModel | OpenAIChatModel, options: Partial<AgentOptions> = {}) {
  return new Agent({
    description: "You are helpful.",
    llm,
    tools: [weatherTools],
    toolsPath: false,
    logger: silentLogger,
    ...options,
  });
}

const usage = { inputTokens: 7, outputTokens: 3, totalTokens: 10 };

describe("agent tracing", () => {
  it("nests chat and parallel execute_tool spans under invoke_agent with GenAI attributes", async () => {
    const llm = new MockChatModel(
      [
        {
          toolCalls: [
            mockToolCall("get_weather", { city: "Hanoi" }, "call_w"),
            mockToolCall("add", { a: 2, b: 3 }, "call_a"),
          ],
        },
        "Hanoi is 21 degrees; 2 + 3 = 5.",
      ],
      { usage, modelId: "scripted-model" },
    );
    const result = await agentWith(llm, { tracing: { agentName: "helper" } }).invoke("Go");
    expect(result.content).toBe("Hanoi is 21 degrees; 2 + 3 = 5.");

    const spans = exporter.getFinishedSpans();
    const root = onlySpan(spans, "invoke_agent helper");
    expect(parentOf(root)).toBeUndefined();
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "helper",
      "gen_ai.request.model": "scripted-model",
      "gen_ai.provider.name": "mock",
      "gen_ai.usage.input_tokens": 14,
      "gen_ai.usage.output_tokens": 6,
      "gen_ai.response.finish_reasons": ["stop"],
    });

    const chats = spans.filter((span) => span.name === "chat scripted-model");
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(parentOf(chat)).toBe(root.spanContext().spanId);
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "scripted-model",
        "gen_ai.system": "mock",
        "gen_ai.usage.input_tokens": 7,
        "gen_ai.usage.output_tokens": 3,
      });
    }
    expect(chats.map((chat) => chat.attributes["gen_ai.response.finish_reasons"])).toEqual([
      ["tool_calls"],
      ["stop"],
    ]);

    const tools = spans.filter((span) => span.name.startsWith("execute_tool "));
    expect(tools.map((span) => [span.name, span.attributes["gen_ai.tool.call.id"]]).sort()).toEqual(
      [
        ["execute_tool add", "call_a"],
        ["execute_tool get_weather", "call_w"],
      ],
    );
    for (const tool of tools) {
      expect(parentOf(tool)).toBe(root.spanContext().spanId);
      expect(tool.attributes["gen_ai.operation.name"]).toBe("execute_tool");
      expect(tool.status.code).toBe(SpanStatusCode.UNSET);
    }
    // The two calls of one reply ran concurrently: each started before the other ended.
    // Relative to the root, so the sum stays within a double's exact integers.
    const nanos = ([seconds, fraction]: [number, number]) =>
      (seconds - root.startTime[0]) * 1e9 + fraction;
    const latestStart = Math.max(...tools.map((tool) => nanos(tool.startTime)));
    expect(latestStart).toBeLessThanOrEqual(Math.min(...tools.map((tool) => nanos(tool.endTime))));
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    // No content unless asked.
    for (const span of spans) {
      expect(Object.keys(span.attributes).filter((key) => key.includes("messages"))).toEqual([]);
      expect(span.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    }
  });

  it("records redacted prompts, completions and tool content only when asked", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("get_weather", { city: secret }, "call_1")] },
      `Done with ${secret}.`,
    ]);
    await agentWith(llm, { tracing: { recordContent: true } }).invoke(`Use key ${secret}`);
    const spans = exporter.getFinishedSpans();
    const root = onlySpan(spans, "invoke_agent");
    expect(JSON.parse(String(root.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "Use key [REDACTED]" }] },
    ]);
    expect(root.attributes["gen_ai.output.messages"]).toContain("Done with [REDACTED].");
    const [firstChat] = spans.filter((span) => span.name === "chat mock-model");
    const input = JSON.parse(String(firstChat!.attributes["gen_ai.input.messages"]));
    expect(input.map((message: { role: string }) => message.role)).toEqual(["system", "user"]);
    expect(String(firstChat!.attributes["gen_ai.output.messages"])).toContain('"type":"tool_call"');
    const tool = onlySpan(spans, "execute_tool get_weather");
    expect(tool.attributes["gen_ai.tool.call.arguments"]).toBe('{"city":"[REDACTED]"}');
    expect(tool.attributes["gen_ai.tool.call.result"]).toBe('"[REDACTED]: 21 degrees celsius"');
    for (const span of spans) expect(JSON.stringify(span.attributes)).not.toContain(secret);
  });

  it("marks a failing tool's span as an error with a redacted exception, and the run goes on", async () => {
    const leaky = primaryFunction(
      { description: "Fails.", parameters: z.object({}), returns: "str" },
      async function leaky() {
        throw new Error(`upstream rejected ${secret}`);
      },
    );
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("leaky", {}, "call_x"), mockToolCall("missing", {}, "call_y")] },
      "Sorry.",
    ]);
    const result = await agentWith(llm, { tools: [leaky] }).invoke("Try");
    expect(result.content).toBe("Sorry.");
    const spans = exporter.getFinishedSpans();
    const failed = onlySpan(spans, "execute_tool leaky");
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.status.message).toContain("[REDACTED]");
    const [event] = failed.events;
    expect(event?.name).toBe("exception");
    expect(JSON.stringify(failed.events)).not.toContain(secret);
    expect(String(event?.attributes?.["exception.message"])).toContain("upstream rejected");
    const missing = onlySpan(spans, "execute_tool missing");
    expect(missing.status.code).toBe(SpanStatusCode.ERROR);
    expect(missing.attributes["error.type"]).toBe("ToolNotFoundError");
    expect(onlySpan(spans, "invoke_agent").status.code).toBe(SpanStatusCode.UNSET);
  });

  it("sends an agent's spans to its own tracerProvider when given one", async () => {
    const own = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(own)],
    });
    const llm = new MockChatModel([{ toolCalls: [mockToolCall("add", { a: 1, b: 1 })] }, "2"]);
    await agentWith(llm, { tracing: { tracerProvider } }).invoke("1+1?");
    expect(
      own
        .getFinishedSpans()
        .map((span) => span.name)
        .sort(),
    ).toEqual(["chat mock-model", "chat mock-model", "execute_tool add", "invoke_agent"]);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("marks the chat and invoke_agent spans failed when the model call fails", async () => {
    const llm = new MockChatModel([new Error(`bad key ${secret}`)]);
    await expect(agentWith(llm).invoke("Hi")).rejects.toThrow("bad key");
    const spans = exporter.getFinishedSpans();
    const chat = onlySpan(spans, "chat mock-model");
    const root = onlySpan(spans, "invoke_agent");
    expect(parentOf(chat)).toBe(root.spanContext().spanId);
    for (const span of [chat, root]) {
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "bad key [REDACTED]" });
      expect(span.attributes["error.type"]).toBe("Error");
    }
  });
});

describe("agent tracing with OpenAIChatModel against the fake LLM server", () => {
  const apiKey = "sk-tracing-e2e-0123456789abcdef";
  let server: FakeLLMServer | undefined;
  afterEach(() => server?.close());
  const modelOn = (fake: FakeLLMServer, key = apiKey) =>
    new OpenAIChatModel({
      baseURL: fake.baseURL,
      apiKey: key,
      model: "test-model",
      maxRetries: 0,
      logger: silentLogger,
    });

  it("reports the provider, the model and the server's token counts", async () => {
    server = await startFakeLLMServer({
      apiKey,
      replies: [{ toolCalls: [mockToolCall("add", { a: 1, b: 2 }, "call_add")] }, "3"],
    });
    await agentWith(modelOn(server)).invoke("1+2?");
    const spans = exporter.getFinishedSpans();
    const chats = spans.filter((span) => span.name === "chat test-model");
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.attributes["gen_ai.provider.name"]).toBe("openai-compatible");
      expect(chat.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
      expect(chat.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
    }
    expect(onlySpan(spans, "execute_tool add").attributes["gen_ai.tool.call.id"]).toBe("call_add");
  });

  it("records a rejected call as an error without the API key", async () => {
    server = await startFakeLLMServer({ apiKey, replies: ["never"] });
    const wrongKey = "sk-tracing-wrong-key-000000";
    registerSecret(wrongKey);
    await expect(agentWith(modelOn(server, wrongKey)).invoke("Hi")).rejects.toThrow();
    const chat = onlySpan(exporter.getFinishedSpans(), "chat test-model");
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(JSON.stringify([chat.status, chat.events, chat.attributes])).not.toContain(wrongKey);
  });
});

describe("tracedChatModel streaming", () => {
  it("ends the chat span with the finish part's usage and the streamed text", async () => {
    const llm = new MockChatModel([`streamed ${secret}`], { usage });
    const model = tracedChatModel(llm);
    let text = "";
    for await (const part of model.stream!({ messages: [{ role: "user", content: "Hi" }] })) {
      if (part.type === "text-delta") text += part.text;
    }
    expect(text).toBe(`streamed ${secret}`);
    const chat = onlySpan(exporter.getFinishedSpans(), "chat mock-model");
    expect(chat.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 7,
      "gen_ai.usage.output_tokens": 3,
      "gen_ai.response.finish_reasons": ["stop"],
    });
    // Outside an agent run that asked for content, none is recorded.
    expect(chat.attributes["gen_ai.output.messages"]).toBeUndefined();
  });
});
