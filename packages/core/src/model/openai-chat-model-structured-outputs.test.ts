import {
  createCapturingLogger,
  type FakeLLMServer,
  openAIErrorBody,
  startFakeLLMServer,
} from "@framework/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../error/model-call-error.js";
import type { ChatRequest, ResponseFormat } from "./chat-model.js";
import { OpenAIChatModel, type OpenAIChatModelOptions } from "./openai-chat-model.js";
import { responseFormatInstruction } from "./response-format-prompt.js";

// Each test starts its own server, so each has a base URL of its own: a refusal remembered for
// one (for the rest of the process) never reaches another.
const servers: FakeLLMServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function startServer(...args: Parameters<typeof startFakeLLMServer>) {
  const server = await startFakeLLMServer(...args);
  servers.push(server);
  return server;
}

const format: ResponseFormat = {
  type: "json",
  name: "answer",
  schema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  strict: true,
};

const request = (): ChatRequest => ({
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Which city?" },
  ],
  responseFormat: format,
});

function modelFor(server: FakeLLMServer, options: OpenAIChatModelOptions = {}) {
  const logger = createCapturingLogger();
  const llm = new OpenAIChatModel({
    apiKey: "sk-test-structured-outputs-5521",
    baseURL: server.baseURL,
    model: "test-model",
    retryBaseDelayMs: 1,
    logger,
    ...options,
  });
  return { llm, logger };
}

const fallbackLines = (logger: ReturnType<typeof createCapturingLogger>) =>
  logger.entries.filter((entry) => entry.message.includes("refused response_format"));

/** Whether a request went out in the prompt form: no response_format, the schema prompted. */
function promptForm(body: FakeLLMServer["chatRequests"][number] | undefined) {
  return {
    response_format: body?.response_format,
    system: body?.messages[0]?.content,
  };
}

const prompted = {
  response_format: undefined,
  system: `You are terse.\n\n${responseFormatInstruction(format)}`,
};

describe("OpenAIChatModel's structured outputs", () => {
  it("sends json_schema when on", async () => {
    const server = await startServer({ defaultReply: '{"city":"Hanoi"}' });
    await modelFor(server, { structuredOutputs: "on" }).llm.generate(request());
    expect(server.chatRequests[0]?.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema: format.schema, strict: true },
    });
    expect(server.chatRequests[0]?.messages[0]?.content).toBe("You are terse.");
  });

  it("sends no response_format and leaves the prompt to the agent when off", async () => {
    const server = await startServer({ defaultReply: '{"city":"Hanoi"}' });
    const { llm } = modelFor(server, { structuredOutputs: "off" });
    expect(llm.supportsStructuredOutputs).toBe(false);
    await llm.generate(request());
    expect(promptForm(server.chatRequests[0])).toEqual({
      response_format: undefined,
      system: "You are terse.",
    });
  });

  it("keeps json_schema in auto mode while the provider accepts it", async () => {
    const server = await startServer({ defaultReply: '{"city":"Hanoi"}' });
    const { llm, logger } = modelFor(server);
    expect(llm.structuredOutputs).toBe("auto");
    await llm.generate(request());
    await llm.generate(request());
    expect(server.chatRequests.map((body) => body.response_format?.type)).toEqual([
      "json_schema",
      "json_schema",
    ]);
    expect(fallbackLines(logger)).toEqual([]);
  });

  it("in auto mode, sends a refused call again at once in the prompt form, and every later call of the process straight so, logging once", async () => {
    const server = await startServer({
      defaultReply: '{"city":"Hanoi"}',
      refusesResponseFormat: true,
    });
    const first = modelFor(server);
    const reply = await first.llm.generate(request());
    expect(reply.message.content).toBe('{"city":"Hanoi"}');
    expect(server.chatRequests.map(promptForm)).toEqual([
      {
        response_format: expect.objectContaining({ type: "json_schema" }),
        system: "You are terse.",
      },
      prompted,
    ]);
    expect(fallbackLines(first.logger)).toEqual([
      {
        level: "info",
        message: expect.stringMatching(
          /^test-model at http:\/\/127\.0\.0\.1:\d+\/v1 refused response_format \(Invalid parameter: 'response_format' of type 'json_schema' is not supported/,
        ),
      },
    ]);

    // Another model for the same base URL and model, as a new agent would make: no refusal.
    const second = modelFor(server);
    await second.llm.generate(request());
    expect(server.chatRequests.slice(2).map(promptForm)).toEqual([prompted]);
    expect(fallbackLines(second.logger)).toEqual([]);
  });

  it("logs the fallback once when concurrent calls are refused together", async () => {
    const server = await startServer({
      defaultReply: '{"city":"Hanoi"}',
      refusesResponseFormat: true,
    });
    const { llm, logger } = modelFor(server);
    await Promise.all([llm.generate(request()), llm.generate(request())]);
    expect(fallbackLines(logger)).toHaveLength(1);
  });

  it("falls back the same way when streaming, before any part is yielded", async () => {
    const server = await startServer({
      defaultReply: '{"city":"Hanoi"}',
      refusesResponseFormat: true,
    });
    const { llm } = modelFor(server);
    let text = "";
    for await (const part of llm.stream(request())) {
      if (part.type === "text-delta") text += part.text;
    }
    expect(text).toBe('{"city":"Hanoi"}');
    expect(server.chatRequests.map((body) => [body.stream, body.response_format?.type])).toEqual([
      [true, "json_schema"],
      [true, undefined],
    ]);
    expect(promptForm(server.chatRequests[1])).toEqual(prompted);
  });

  it("does not take another 400 for a refusal of response_format", async () => {
    const server = await startServer({ defaultReply: '{"city":"Hanoi"}' });
    server.injectFaults({
      status: 400,
      body: openAIErrorBody(
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens. Please reduce the length of the messages.",
        "invalid_request_error",
        "context_length_exceeded",
      ),
    });
    const { llm, logger } = modelFor(server);
    const failure = await llm.generate(request()).catch((error: unknown) => error);
    expect(ModelCallError.isInstance(failure) && failure.statusCode).toBe(400);
    expect(server.chatRequests).toHaveLength(1);
    expect(fallbackLines(logger)).toEqual([]);
    await llm.generate(request());
    expect(server.chatRequests[1]?.response_format?.type).toBe("json_schema");
  });

  it("in on mode, lets the provider's refusal through", async () => {
    const server = await startServer({
      defaultReply: '{"city":"Hanoi"}',
      refusesResponseFormat: true,
    });
    const { llm } = modelFor(server, { structuredOutputs: "on" });
    const failure = await llm.generate(request()).catch((error: unknown) => error);
    expect(ModelCallError.isInstance(failure) && failure.statusCode).toBe(400);
    expect(server.chatRequests).toHaveLength(1);
  });

  it("prompts the schema once, even when the system prompt already holds it", async () => {
    const server = await startServer({
      defaultReply: '{"city":"Hanoi"}',
      refusesResponseFormat: true,
    });
    const { llm } = modelFor(server);
    const system = `You are terse.\n\n${responseFormatInstruction(format)}`;
    await llm.generate({
      ...request(),
      messages: [
        { role: "system", content: system },
        { role: "user", content: "Which city?" },
      ],
    });
    expect(server.chatRequests[1]?.messages[0]?.content).toBe(system);
  });
});
