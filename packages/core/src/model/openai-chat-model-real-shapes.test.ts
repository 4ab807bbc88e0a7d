import {
  errorBodyFault,
  errorBodyShapes,
  type FakeLLMContentFormat,
  type FakeLLMServer,
  mockToolCall,
  startFakeLLMServer,
  startFakeServer,
} from "@framework/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../error/model-call-error.js";
import { ModelResponseError } from "../error/model-response-error.js";
import { silentLogger } from "../log/logger.js";
import type { ChatStreamPart } from "./chat-model.js";
import { OpenAIChatModel } from "./openai-chat-model.js";

const servers: FakeLLMServer[] = [];

async function startServer(...args: Parameters<typeof startFakeLLMServer>) {
  const server = await startFakeLLMServer(...args);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const modelFor = (server: FakeLLMServer) =>
  new OpenAIChatModel({
    apiKey: "sk-test-real-shapes-0001",
    baseURL: server.baseURL,
    model: "test-model",
    maxRetries: 0,
    logger: silentLogger,
  });

const request = { messages: [{ role: "user" as const, content: "Capital of France?" }] };

async function collect(stream: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const joined = (parts: ChatStreamPart[], type: "text-delta" | "reasoning-delta") =>
  parts.map((part) => (part.type === type ? part.text : "")).join("");

const formats: FakeLLMContentFormat[] = ["string", "parts", "reasoning-field"];

describe("OpenAIChatModel with content as parts and reasoning", () => {
  it.each(formats)("generate keeps %s reasoning out of the answer", async (contentFormat) => {
    const server = await startServer({
      contentFormat,
      replies: [{ content: "Paris.", reasoning: "The capital of France is Paris." }],
    });
    const response = await modelFor(server).generate(request);
    expect(response.message.content).toBe("Paris.");
    expect(response.reasoning).toBe("The capital of France is Paris.");
  });

  it.each(formats)("stream yields %s reasoning and text apart", async (contentFormat) => {
    const server = await startServer({
      contentFormat,
      replies: [{ content: "It is Paris.", reasoning: "France's capital: Paris." }],
    });
    const parts = await collect(modelFor(server).stream(request));
    expect(joined(parts, "text-delta")).toBe("It is Paris.");
    expect(joined(parts, "reasoning-delta")).toBe("France's capital: Paris.");
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  });

  it("reads tool calls next to content parts", async () => {
    const server = await startServer({
      contentFormat: "parts",
      replies: [
        {
          content: "Checking.",
          reasoning: "I need the clock.",
          toolCalls: [mockToolCall("get_current_time", { timezone: "UTC" }, "call_1")],
        },
      ],
    });
    const response = await modelFor(server).generate(request);
    expect(response).toMatchObject({
      message: {
        content: "Checking.",
        toolCalls: [{ id: "call_1", name: "get_current_time", arguments: '{"timezone":"UTC"}' }],
      },
      reasoning: "I need the clock.",
      finishReason: "tool_calls",
    });
  });

  it("sets no reasoning when the provider sends none", async () => {
    const server = await startServer({ contentFormat: "parts", replies: ["Paris."] });
    const response = await modelFor(server).generate(request);
    expect(response.message.content).toBe("Paris.");
    expect(response).not.toHaveProperty("reasoning");
  });

  it("rejects content that is neither text nor parts with ModelResponseError", async () => {
    const server = await startServer(["never"]);
    server.injectFaults({
      body: {
        choices: [{ index: 0, message: { role: "assistant", content: 42 }, finish_reason: "stop" }],
      },
    });
    const failure = await modelFor(server)
      .generate(request)
      .catch((error: unknown) => error);
    expect(ModelResponseError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toContain(
      "choices[0].message: content is neither a string nor an array of parts",
    );
  });
});

describe("OpenAIChatModel with error bodies of every shape", () => {
  it.each(errorBodyShapes)("reports the provider's message from a %s body", async (shape) => {
    const server = await startServer(["never"]);
    server.injectFaults(errorBodyFault(400, shape, "The model `gpt-x` does not exist"));
    const failure = await modelFor(server)
      .generate(request)
      .catch((error: unknown) => error);
    expect(ModelCallError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ kind: "http", statusCode: 400, retryable: false });
    expect((failure as ModelCallError).upstreamMessage).toContain(
      "The model `gpt-x` does not exist",
    );
    expect((failure as Error).message).toContain("HTTP 400: ");
    expect((failure as Error).message).not.toContain("no body");
  });

  it("reports the message of an error body when streaming", async () => {
    const server = await startServer(["never"]);
    server.injectFaults(errorBodyFault(503, "detail", "Model is loading, retry shortly"));
    const failure = await collect(modelFor(server).stream(request)).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      statusCode: 503,
      upstreamMessage: "Model is loading, retry shortly",
    });
  });

  it.each([
    [{ error: { message: "Overloaded, try again" } }],
    [{ error: "Overloaded, try again" }],
  ])("reports an error event inside a stream: %j", async (event) => {
    const fake = await startFakeServer((_request, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify(event)}\n\n`);
      return undefined;
    });
    try {
      const model = new OpenAIChatModel({
        apiKey: "sk-test-real-shapes-0001",
        baseURL: fake.url,
        maxRetries: 0,
        logger: silentLogger,
      });
      const failure = await collect(model.stream(request)).catch((error: unknown) => error);
      expect(ModelCallError.isInstance(failure)).toBe(true);
      expect((failure as ModelCallError).upstreamMessage).toBe("Overloaded, try again");
    } finally {
      await fake.close();
    }
  });

  it("redacts a key the provider echoes in its error body", async () => {
    const server = await startServer(["never"]);
    server.injectFaults(errorBodyFault(401, "message", "Invalid key sk-test-real-shapes-0001"));
    const failure = await modelFor(server)
      .generate(request)
      .catch((error: unknown) => error);
    expect((failure as ModelCallError).upstreamMessage).toBe("Invalid key [REDACTED]");
    expect(JSON.stringify(failure)).not.toContain("sk-test-real-shapes-0001");
  });

  it("says only the status for an empty error body", async () => {
    const server = await startServer(["never"]);
    server.injectFaults({ status: 502 });
    const failure = await modelFor(server)
      .generate(request)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ statusCode: 502 });
    expect((failure as { upstreamMessage?: string }).upstreamMessage).toBeUndefined();
    expect((failure as Error).message).toMatch(/, HTTP 502$/);
  });
});
