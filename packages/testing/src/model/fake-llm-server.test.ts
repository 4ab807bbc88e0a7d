import OpenAI from "openai";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  llmHangFault,
  llmMalformedBodyFault,
  llmRateLimitFault,
  llmResponseFormatRefusalFault,
  llmServerErrorFault,
  llmStreamCutFault,
} from "./fake-llm-faults.js";
import { type FakeLLMServer, startFakeLLMServer } from "./fake-llm-server.js";
import { mockToolCall } from "./scripted-reply.js";

const servers: FakeLLMServer[] = [];

async function start(...args: Parameters<typeof startFakeLLMServer>) {
  const server = await startFakeLLMServer(...args);
  servers.push(server);
  return server;
}

const client = (server: FakeLLMServer, apiKey = "sk-fake-key") =>
  new OpenAI({ apiKey, baseURL: server.baseURL, maxRetries: 0, logLevel: "off" });

const user = (content: string) => [{ role: "user" as const, content }];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const answerFormat = {
  type: "json_schema" as const,
  json_schema: { name: "answer", schema: { type: "object" }, strict: false },
};

describe("startFakeLLMServer", () => {
  it("refuses response_format with OpenAI's 400 when refusesResponseFormat is set, keeping the script", async () => {
    const server = await start({ replies: ["{}"], refusesResponseFormat: true });
    const failure = await client(server)
      .chat.completions.create({ model: "m", messages: user("hi"), response_format: answerFormat })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 400, param: "response_format" });
    expect((failure as Error).message).toContain("'response_format' of type 'json_schema'");
    const completion = await client(server).chat.completions.create({
      model: "m",
      messages: user("hi"),
    });
    expect(completion.choices[0]?.message.content).toBe("{}");
  });

  it("accepts response_format by default", async () => {
    const server = await start(["{}"]);
    const completion = await client(server).chat.completions.create({
      model: "m",
      messages: user("hi"),
      response_format: answerFormat,
    });
    expect(completion.choices[0]?.message.content).toBe("{}");
    expect(server.chatRequests[0]?.response_format).toEqual(answerFormat);
  });

  it("injects the response_format refusal as a one-off fault", async () => {
    const server = await start(["ok"]);
    server.injectFaults(llmResponseFormatRefusalFault());
    const failure = await client(server)
      .chat.completions.create({ model: "m", messages: user("hi") })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 400, param: "response_format" });
  });

  it("answers chat completions in the OpenAI shape and records the bodies", async () => {
    const server = await start(["Hi!"]);
    expect(server.baseURL).toBe(`${server.url}/v1`);
    const completion = await client(server).chat.completions.create({
      model: "some-model",
      messages: user("hello"),
    });
    expect(completion).toMatchObject({
      object: "chat.completion",
      model: "some-model",
      choices: [
        { index: 0, message: { role: "assistant", content: "Hi!" }, finish_reason: "stop" },
      ],
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    expect(server.chatRequests).toEqual([{ model: "some-model", messages: user("hello") }]);
  });

  it("returns tool calls with string arguments", async () => {
    const server = await start([{ toolCalls: [mockToolCall("search_api", { query: "btc" })] }]);
    const completion = await client(server).chat.completions.create({
      model: "m",
      messages: user("search"),
    });
    const [choice] = completion.choices;
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual([
      {
        id: "call_0_0",
        type: "function",
        function: { name: "search_api", arguments: '{"query":"btc"}' },
      },
    ]);
  });

  it("computes replies from the parsed body", async () => {
    const server = await start({
      defaultReply: (body, index) => `#${index} for ${body.model}`,
    });
    const openai = client(server);
    await openai.chat.completions.create({ model: "a", messages: user("x") });
    const second = await openai.chat.completions.create({ model: "b", messages: user("x") });
    expect(second.choices[0]?.message.content).toBe("#1 for b");
  });

  it("streams chunks, tool-call deltas split across chunks, usage and [DONE]", async () => {
    const server = await start({
      replies: [
        { content: "Two words", toolCalls: [mockToolCall("t", { long: "argument value" })] },
      ],
      defaultReply: "again",
    });
    const stream = await client(server).chat.completions.create({
      model: "m",
      messages: user("x"),
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    const argumentPieces: string[] = [];
    let finishReason: string | null = null;
    let usageChunks = 0;
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk");
      if (chunk.usage) usageChunks++;
      const choice = chunk.choices[0];
      text += choice?.delta.content ?? "";
      for (const call of choice?.delta.tool_calls ?? []) {
        if (call.function?.arguments) argumentPieces.push(call.function.arguments);
      }
      finishReason = choice?.finish_reason ?? finishReason;
    }
    expect(text).toBe("Two words");
    expect(argumentPieces.length).toBeGreaterThan(1);
    expect(argumentPieces.join("")).toBe('{"long":"argument value"}');
    expect(finishReason).toBe("tool_calls");
    expect(usageChunks).toBe(1);
    const raw = await fetch(`${server.baseURL}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: user("x"), stream: true }),
    });
    expect(raw.headers.get("content-type")).toBe("text/event-stream");
    expect((await raw.text()).endsWith("data: [DONE]\n\n")).toBe(true);
  });

  it("checks the bearer key and answers 401 in OpenAI's error shape", async () => {
    const server = await start({ replies: ["secret"], apiKey: "sk-right-key-123456" });
    await expect(
      client(server, "sk-wrong-key-000000").chat.completions.create({
        model: "m",
        messages: user("x"),
      }),
    ).rejects.toMatchObject({
      status: 401,
      code: "invalid_api_key",
      type: "invalid_request_error",
    });
    const ok = await client(server, "sk-right-key-123456").chat.completions.create({
      model: "m",
      messages: user("x"),
    });
    expect(ok.choices[0]?.message.content).toBe("secret");
  });

  it("answers unknown paths with 404 and exhausted scripts with 500", async () => {
    const server = await start(["one"]);
    const missing = await fetch(`${server.url}/v1/models`);
    expect(missing.status).toBe(404);
    const openai = client(server);
    await openai.chat.completions.create({ model: "m", messages: user("x") });
    await expect(
      openai.chat.completions.create({ model: "m", messages: user("x") }),
    ).rejects.toMatchObject({
      status: 500,
      message: expect.stringMatching(/no scripted reply for call #1/),
    });
  });

  it("serves injected faults before the script", async () => {
    const server = await start(["after faults"]);
    server.injectFaults(
      llmRateLimitFault({ retryAfter: 2 }),
      llmRateLimitFault({ retryAfterMs: 250 }),
      llmRateLimitFault(),
      llmServerErrorFault(502),
      llmMalformedBodyFault(),
    );
    const post = () =>
      fetch(`${server.baseURL}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "m", messages: user("x") }),
      });
    const first = await post();
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("2");
    expect(await first.json()).toMatchObject({ error: { code: "rate_limit_exceeded" } });
    expect((await post()).headers.get("retry-after-ms")).toBe("250");
    const bare = await post();
    expect(bare.headers.get("retry-after")).toBeNull();
    expect(bare.headers.get("retry-after-ms")).toBeNull();
    expect((await post()).status).toBe(502);
    const malformed = await post();
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow(SyntaxError);
    expect(await (await post()).json()).toMatchObject({
      choices: [{ message: { content: "after faults" } }],
    });
    expect(server.chatRequests).toHaveLength(6);
  });

  it("offers a hang and a stream cut off midway", async () => {
    const server = await start([]);
    server.injectFaults(llmHangFault(), llmStreamCutFault());
    // Aborted only once the server holds the request: a timer could fire before it arrives,
    // leaving the hang to the next request.
    const abort = new AbortController();
    const hanging = fetch(`${server.baseURL}/chat/completions`, {
      method: "POST",
      body: "{}",
      signal: abort.signal,
    });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 60_000 });
    abort.abort();
    await expect(hanging).rejects.toThrow();
    const cut = await fetch(`${server.baseURL}/chat/completions`, { method: "POST", body: "{}" });
    await expect(cut.text()).rejects.toThrow();
  });

  it("answers in prose with answersInProse, even when asked for JSON", async () => {
    const json = JSON.stringify({ action: "hold", percent: 60 });
    const server = await start({
      answersInProse: true,
      replies: [{ toolCalls: [mockToolCall("search_api", { query: "btc" })] }, json, json],
    });
    const ask = (stream: boolean) =>
      client(server).chat.completions.create({
        model: "m",
        messages: user("recommend"),
        response_format: {
          type: "json_schema",
          json_schema: { name: "output", schema: { type: "object" }, strict: false },
        },
        ...(stream ? { stream: true as const } : {}),
      });
    const call = (await ask(false)) as OpenAI.ChatCompletion;
    expect(call.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: "search_api", arguments: '{"query":"btc"}' },
    });
    const answer = (await ask(false)) as OpenAI.ChatCompletion;
    expect(answer.choices[0]?.message.content).toBe("Action: hold.\nPercent: 60.");
    let streamed = "";
    for await (const chunk of (await ask(true)) as AsyncIterable<OpenAI.ChatCompletionChunk>) {
      streamed += chunk.choices[0]?.delta.content ?? "";
    }
    expect(streamed).toBe("Action: hold.\nPercent: 60.");
  });
});
