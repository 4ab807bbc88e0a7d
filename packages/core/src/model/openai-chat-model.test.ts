import {
  type FakeLLMServer,
  llmHangFault,
  llmMalformedBodyFault,
  llmRateLimitFault,
  llmServerErrorFault,
  llmStreamCutFault,
  mockToolCall,
  openAIErrorBody,
  startFakeLLMServer,
  startFakeServer,
} from "@framework/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortedError } from "../error/aborted-error.js";
import { ConfigurationError } from "../error/configuration-error.js";
import { ModelCallError } from "../error/model-call-error.js";
import { ModelResponseError } from "../error/model-response-error.js";
import { ModelTimeoutError } from "../error/model-timeout-error.js";
import type { Logger } from "../log/logger.js";
import type { ChatRequest, ChatStreamPart, ToolDefinition } from "./chat-model.js";
import { OpenAIChatModel, type OpenAIChatModelOptions } from "./openai-chat-model.js";

const apiKey = "sk-test-3f9a1c7e5b2d4f60";
const servers: FakeLLMServer[] = [];
const logLines: string[] = [];

async function startServer(...args: Parameters<typeof startFakeLLMServer>) {
  const server = await startFakeLLMServer(...args);
  servers.push(server);
  return server;
}

function recordingLogger(onWarn?: (line: string) => void): Logger {
  const record = (level: string) => (line: string) => {
    logLines.push(`${level} ${line}`);
    if (level === "WARN") onWarn?.(line);
  };
  return {
    debug: record("DEBUG"),
    info: record("INFO"),
    warn: record("WARN"),
    error: record("ERROR"),
  };
}

function warnings(): string[] {
  return logLines.filter((line) => line.startsWith("WARN ")).map((line) => line.slice(5));
}

function modelFor(server: FakeLLMServer, options: OpenAIChatModelOptions = {}) {
  return new OpenAIChatModel({
    apiKey,
    baseURL: server.baseURL,
    model: "test-model",
    retryBaseDelayMs: 5,
    logger: recordingLogger(),
    ...options,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const ask = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content },
  ],
  ...extra,
});

const clockTool: ToolDefinition = {
  name: "get_current_time",
  description: "Current time in a timezone.",
  parameters: {
    type: "object",
    properties: { timezone: { type: "string" } },
    required: ["timezone"],
  },
};

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  logLines.length = 0;
  vi.unstubAllEnvs();
});

describe("OpenAIChatModel requests and replies", () => {
  it("answers a text reply and sends the OpenAI request shape", async () => {
    const server = await startServer(["Hello there."]);
    const response = await modelFor(server, { temperature: 0.2 }).generate(
      ask("Hi", { maxOutputTokens: 50 }),
    );
    expect(response.message).toEqual({ role: "assistant", content: "Hello there." });
    expect(response.finishReason).toBe("stop");
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(server.chatRequests).toEqual([
      {
        model: "test-model",
        messages: [
          { role: "system", content: "You are terse." },
          { role: "user", content: "Hi" },
        ],
        temperature: 0.2,
        max_tokens: 50,
      },
    ]);
  });

  it("round-trips tool calls: definitions out, calls in, results back", async () => {
    const server = await startServer([
      { toolCalls: [mockToolCall("get_current_time", { timezone: "UTC" })] },
      "It is noon in UTC.",
    ]);
    const llm = modelFor(server);
    const first = await llm.generate(ask("What time is it?", { tools: [clockTool] }));
    expect(first.finishReason).toBe("tool_calls");
    expect(first.message).toEqual({
      role: "assistant",
      content: null,
      toolCalls: [{ id: "call_0_0", name: "get_current_time", arguments: '{"timezone":"UTC"}' }],
    });
    expect(server.chatRequests[0]?.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_current_time",
          description: "Current time in a timezone.",
          parameters: clockTool.parameters,
        },
      },
    ]);
    expect(server.chatRequests[0]?.tool_choice).toBe("auto");

    const second = await llm.generate({
      messages: [
        ...ask("What time is it?").messages,
        first.message,
        { role: "tool", toolCallId: "call_0_0", name: "get_current_time", content: "12:00" },
      ],
      tools: [clockTool],
      toolChoice: "none",
    });
    expect(second.message.content).toBe("It is noon in UTC.");
    const sent = server.chatRequests[1];
    expect(sent?.tool_choice).toBe("none");
    expect(sent?.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_0_0",
            type: "function",
            function: { name: "get_current_time", arguments: '{"timezone":"UTC"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_0_0", content: "12:00" },
    ]);
  });

  it("maps usage, and reports zeros when the provider sends none", async () => {
    const server = await startServer([
      { content: "counted", usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 } },
    ]);
    const llm = modelFor(server);
    expect((await llm.generate(ask("count"))).usage).toEqual({
      inputTokens: 12,
      outputTokens: 3,
      totalTokens: 15,
    });
    server.injectFaults({
      body: {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 0,
        model: "test-model",
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: "no usage" },
            finish_reason: "length",
          },
        ],
      },
    });
    const bare = await llm.generate(ask("count"));
    expect(bare.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(bare.finishReason).toBe("length");
  });

  it("reads its defaults from the environment when constructed", async () => {
    const server = await startServer(["from env"]);
    vi.stubEnv("LLM_API_URL", server.baseURL);
    vi.stubEnv("LLM_API_KEY", apiKey);
    vi.stubEnv("LLM_MODEL", "env-model");
    const llm = new OpenAIChatModel({ logger: recordingLogger() });
    expect(llm.modelId).toBe("env-model");
    expect((await llm.generate(ask("hi"))).message.content).toBe("from env");
    expect(server.chatRequests[0]?.model).toBe("env-model");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
  });

  it("refuses to start without an API key, saying how to set one", () => {
    vi.stubEnv("LLM_API_KEY", "");
    let failure: unknown;
    try {
      new OpenAIChatModel({ baseURL: "http://127.0.0.1:9/v1" });
    } catch (error) {
      failure = error;
    }
    expect(ConfigurationError.isInstance(failure)).toBe(true);
    expect((failure as ConfigurationError).setting).toBe("LLM_API_KEY");
    expect((failure as ConfigurationError).message).toMatch(/Set the LLM_API_KEY environment/);
  });
});

describe("OpenAIChatModel streaming", () => {
  it("streams text deltas, then finish with usage", async () => {
    const server = await startServer([
      {
        content: "Streaming works fine.",
        usage: { inputTokens: 7, outputTokens: 4, totalTokens: 11 },
      },
    ]);
    const parts = await collect(modelFor(server).stream(ask("stream please")));
    const text = parts.flatMap((part) => (part.type === "text-delta" ? [part.text] : []));
    expect(text.length).toBeGreaterThan(1);
    expect(text.join("")).toBe("Streaming works fine.");
    expect(parts.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 7, outputTokens: 4, totalTokens: 11 },
    });
    expect(server.chatRequests[0]).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("assembles tool calls from their deltas and emits each whole", async () => {
    const server = await startServer([
      {
        toolCalls: [
          mockToolCall("get_current_time", { timezone: "Europe/Paris" }),
          mockToolCall("get_current_time", { timezone: "Asia/Tokyo" }, "call_tokyo"),
        ],
      },
    ]);
    const parts = await collect(modelFor(server).stream(ask("times?", { tools: [clockTool] })));
    expect(parts.filter((part) => part.type !== "finish")).toEqual([
      {
        type: "tool-call",
        toolCall: {
          id: "call_0_0",
          name: "get_current_time",
          arguments: '{"timezone":"Europe/Paris"}',
        },
      },
      {
        type: "tool-call",
        toolCall: {
          id: "call_tokyo",
          name: "get_current_time",
          arguments: '{"timezone":"Asia/Tokyo"}',
        },
      },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "tool_calls" });
  });

  it("rejects a stream cut off midway with a typed error", async () => {
    const server = await startServer([]);
    server.injectFaults(llmStreamCutFault());
    const parts: ChatStreamPart[] = [];
    const failure = await failureOf(
      (async () => {
        for await (const part of modelFor(server).stream(ask("go"))) parts.push(part);
      })(),
    );
    expect(ModelCallError.isInstance(failure)).toBe(true);
    expect((failure as ModelCallError).kind).toBe("network");
    expect((failure as ModelCallError).message).toMatch(/stream cut off/);
    expect(parts.some((part) => part.type === "finish")).toBe(false);
  });

  it("retries a rate-limited stream before any part is produced", async () => {
    const server = await startServer(["after the wait"]);
    server.injectFaults(llmRateLimitFault({ retryAfter: 0 }));
    const parts = await collect(modelFor(server).stream(ask("go")));
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    expect(server.chatRequests).toHaveLength(2);
    expect(warnings()).toHaveLength(1);
  });

  it("stops with AbortedError when aborted mid-stream", async () => {
    const server = await startServer(["one two three four five six"]);
    const controller = new AbortController();
    const failure = await failureOf(
      (async () => {
        for await (const _part of modelFor(server).stream(
          ask("go", { signal: controller.signal }),
        )) {
          controller.abort();
        }
      })(),
    );
    expect(AbortedError.isInstance(failure)).toBe(true);
  });
});

describe("OpenAIChatModel retries", () => {
  it("retries HTTP 429 twice, honouring Retry-After, and logs each wait", async () => {
    const server = await startServer(["finally"]);
    server.injectFaults(
      llmRateLimitFault({ retryAfter: 0 }),
      llmRateLimitFault({ retryAfterMs: 5 }),
    );
    const response = await modelFor(server).generate(ask("hi"));
    expect(response.message.content).toBe("finally");
    expect(server.chatRequests).toHaveLength(3);
    expect(warnings()).toEqual([
      "Retrying request to /chat/completions in 0 seconds (attempt 1/4, HTTP 429)",
      "Retrying request to /chat/completions in 0.005 seconds (attempt 2/4, HTTP 429)",
    ]);
  });

  it("waits the base delay, doubling, when 429 comes without Retry-After", async () => {
    const server = await startServer(["ok"]);
    server.injectFaults(llmRateLimitFault(), llmRateLimitFault());
    await modelFor(server, { retryBaseDelayMs: 10 }).generate(ask("hi"));
    expect(warnings()).toEqual([
      "Retrying request to /chat/completions in 0.01 seconds (attempt 1/4, HTTP 429)",
      "Retrying request to /chat/completions in 0.02 seconds (attempt 2/4, HTTP 429)",
    ]);
  });

  it("retries server errors 500, 502, 503 and 504", async () => {
    const server = await startServer(["recovered"]);
    server.injectFaults(
      llmServerErrorFault(500),
      llmServerErrorFault(502),
      llmServerErrorFault(503),
      llmServerErrorFault(504),
    );
    const response = await modelFor(server).generate(ask("hi"));
    expect(response.message.content).toBe("recovered");
    expect(warnings().map((line) => line.replace(/.*, /, ""))).toEqual([
      "HTTP 500)",
      "HTTP 502)",
      "HTTP 503)",
      "HTTP 504)",
    ]);
  });

  it("fails fast on 401 with a ModelCallError", async () => {
    const server = await startServer({ replies: ["never"], apiKey: "sk-the-right-key-000" });
    const failure = await failureOf(modelFor(server).generate(ask("hi")));
    expect(ModelCallError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      name: "ModelCallError",
      kind: "http",
      statusCode: 401,
      retryable: false,
      attempts: 1,
      provider: "openai-compatible",
      modelId: "test-model",
    });
    expect((failure as ModelCallError).upstreamMessage).toMatch(/Incorrect API key provided/);
    expect(server.chatRequests).toHaveLength(1);
    expect(warnings()).toEqual([]);
  });

  it.each([400, 403, 404, 422])("does not retry HTTP %i", async (status) => {
    const server = await startServer(["never"]);
    server.injectFaults({ status, body: openAIErrorBody("rejected", "invalid_request_error") });
    const failure = await failureOf(modelFor(server).generate(ask("hi")));
    expect(failure).toMatchObject({ statusCode: status, retryable: false, attempts: 1 });
    expect(server.chatRequests).toHaveLength(1);
  });

  it("reports the attempts when retries are used up", async () => {
    const server = await startServer(["never"]);
    server.injectFaults(
      llmServerErrorFault(503),
      llmServerErrorFault(503),
      llmServerErrorFault(503),
    );
    const failure = await failureOf(modelFor(server, { maxRetries: 2 }).generate(ask("hi")));
    expect(ModelCallError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ statusCode: 503, retryable: true, attempts: 3 });
    expect((failure as Error).message).toMatch(/after 3 attempts, HTTP 503/);
    expect(server.chatRequests).toHaveLength(3);
    expect(warnings()).toHaveLength(2);
  });

  it("retries connection errors, then reports them", async () => {
    const server = await startServer([]);
    const baseURL = server.baseURL;
    await server.close();
    const llm = new OpenAIChatModel({
      apiKey,
      baseURL,
      maxRetries: 1,
      retryBaseDelayMs: 1,
      logger: recordingLogger(),
    });
    const failure = await failureOf(llm.generate(ask("hi")));
    expect(failure).toMatchObject({ kind: "network", retryable: true, attempts: 2 });
    expect((failure as ModelCallError).statusCode).toBeUndefined();
    expect(warnings()).toEqual([
      "Retrying request to /chat/completions in 0.001 seconds (attempt 1/1, connection error)",
    ]);
  });
});

/**
 * Runs `start` with the deadline's clock faked, waits (on the event loop, not the clock) until
 * `reached` holds, then moves the clock past `timeoutMs`: the request is known to have reached
 * its stalling point however slowly a loaded machine got there.
 */
async function failureAfterDeadline(
  timeoutMs: number,
  start: () => Promise<unknown>,
  reached: () => boolean,
): Promise<unknown> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    const pending = failureOf(start());
    while (!reached()) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(timeoutMs);
    return await pending;
  } finally {
    vi.useRealTimers();
  }
}

describe("OpenAIChatModel timeouts and aborts", () => {
  it("ends a hanging request at timeoutMs with ModelTimeoutError, without retrying", async () => {
    const server = await startServer(["too late"]);
    server.injectFaults(llmHangFault());
    const failure = await failureAfterDeadline(
      150,
      () => modelFor(server, { timeoutMs: 150 }).generate(ask("hi")),
      () => server.chatRequests.length === 1,
    );
    expect(ModelTimeoutError.isInstance(failure)).toBe(true);
    expect(ModelCallError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ kind: "timeout", timeoutMs: 150, attempts: 1 });
    expect(server.chatRequests).toHaveLength(1);
  });

  it("bounds reading a body that stalls after the headers", async () => {
    const stalling = await startFakeServer((_request, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id": "chatcmpl-stalled", ');
      return undefined;
    });
    try {
      const llm = new OpenAIChatModel({
        apiKey,
        baseURL: stalling.url,
        timeoutMs: 150,
        logger: recordingLogger(),
      });
      const failure = await failureAfterDeadline(
        150,
        () => llm.generate(ask("hi")),
        () => stalling.requests.length === 1,
      );
      expect(ModelTimeoutError.isInstance(failure)).toBe(true);
      expect(stalling.requests).toHaveLength(1);
    } finally {
      await stalling.close();
    }
  });

  it("bounds the wait between two stream chunks", async () => {
    const stalling = await startFakeServer((_request, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = {
        id: "chatcmpl-stalled",
        object: "chat.completion.chunk",
        created: 0,
        model: "m",
        choices: [{ index: 0, delta: { content: "partial" }, finish_reason: null }],
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      return undefined;
    });
    try {
      const llm = new OpenAIChatModel({
        apiKey,
        baseURL: stalling.url,
        timeoutMs: 150,
        logger: recordingLogger(),
      });
      const parts: ChatStreamPart[] = [];
      const failure = await failureAfterDeadline(
        150,
        async () => {
          for await (const part of llm.stream(ask("hi"))) parts.push(part);
        },
        () => parts.length === 1,
      );
      expect(ModelTimeoutError.isInstance(failure)).toBe(true);
      expect(parts).toEqual([{ type: "text-delta", text: "partial" }]);
    } finally {
      await stalling.close();
    }
  });

  it("rejects with AbortedError when aborted mid-request", async () => {
    const server = await startServer([]);
    server.injectFaults(llmHangFault());
    const controller = new AbortController();
    const pending = modelFor(server).generate(ask("hi", { signal: controller.signal }));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort(new Error("user cancelled"));
    const failure = await failureOf(pending);
    expect(AbortedError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ operation: "chat completion" });
  });

  it("rejects an already aborted request without sending it", async () => {
    const server = await startServer(["never"]);
    const failure = await failureOf(
      modelFor(server).generate(ask("hi", { signal: AbortSignal.abort() })),
    );
    expect(AbortedError.isInstance(failure)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it("ends a retry wait with AbortedError and leaves no timer behind", async () => {
    const server = await startServer(["never"]);
    server.injectFaults(llmRateLimitFault());
    const controller = new AbortController();
    const timers = () =>
      process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
    const before = timers();
    const llm = modelFor(server, {
      retryBaseDelayMs: 600_000,
      logger: recordingLogger(() => setImmediate(() => controller.abort())),
    });
    const failure = await failureOf(llm.generate(ask("hi", { signal: controller.signal })));
    expect(AbortedError.isInstance(failure)).toBe(true);
    expect(warnings()).toEqual([
      "Retrying request to /chat/completions in 30 seconds (attempt 1/4, HTTP 429)",
    ]);
    expect(timers()).toBeLessThanOrEqual(before);
    expect(server.chatRequests).toHaveLength(1);
  });
});

describe("OpenAIChatModel invalid responses", () => {
  it("rejects a body that is not JSON with ModelResponseError, without retrying", async () => {
    const server = await startServer(["never"]);
    server.injectFaults(llmMalformedBodyFault());
    const failure = await failureOf(modelFor(server).generate(ask("hi")));
    expect(ModelResponseError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ kind: "invalid_response", retryable: false, attempts: 1 });
    expect(server.chatRequests).toHaveLength(1);
  });

  it("rejects JSON that is not a chat completion", async () => {
    const server = await startServer([]);
    server.injectFaults({ body: { object: "list", data: [] } }, { body: "plain text" });
    const llm = modelFor(server);
    for (const _ of [1, 2]) {
      const failure = await failureOf(llm.generate(ask("hi")));
      expect(ModelResponseError.isInstance(failure)).toBe(true);
    }
  });
});

describe("OpenAIChatModel secrecy", () => {
  it("never shows the API key in errors, their properties or log lines", async () => {
    const server = await startServer([]);
    const echo = `Incorrect API key provided: ${apiKey}. You sent Authorization: Bearer ${apiKey}`;
    const failures: unknown[] = [];
    server.injectFaults({ status: 401, body: openAIErrorBody(echo, "invalid_request_error") });
    failures.push(await failureOf(modelFor(server).generate(ask("hi"))));
    server.injectFaults(
      { status: 429, body: openAIErrorBody(echo, "requests") },
      { status: 429, body: openAIErrorBody(echo, "requests") },
    );
    failures.push(await failureOf(modelFor(server, { maxRetries: 1 }).generate(ask("hi"))));
    server.injectFaults({ status: 500, body: echo });
    failures.push(await failureOf(modelFor(server, { maxRetries: 0 }).generate(ask("hi"))));
    server.injectFaults({
      status: 200,
      headers: { "content-type": "application/json" },
      body: echo,
    });
    failures.push(await failureOf(modelFor(server).generate(ask("hi"))));
    server.injectFaults(llmHangFault());
    failures.push(await failureOf(modelFor(server, { timeoutMs: 50 }).generate(ask("hi"))));
    const closed = await startServer([]);
    await closed.close();
    failures.push(await failureOf(modelFor(closed, { maxRetries: 0 }).generate(ask("hi"))));

    expect(failures.every((failure) => ModelCallError.isInstance(failure))).toBe(true);
    for (const failure of failures) {
      const error = failure as ModelCallError;
      expect(error.message).not.toContain(apiKey);
      expect(String(error)).not.toContain(apiKey);
      expect(JSON.stringify({ ...error })).not.toContain(apiKey);
      expect(String(error.cause ?? "")).not.toContain(apiKey);
    }
    expect((failures[0] as ModelCallError).message).toContain("[REDACTED]");
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line).not.toContain(apiKey);
  });
});
