import {
  type CapturingLogger,
  createCapturingLogger,
  type FakeLLMServer,
  startFakeLLMServer,
} from "@framework/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { OpenAIChatModel } from "../model/openai-chat-model.js";
import type { StructuredOutputsMode } from "../model/structured-outputs.js";
import { Agent } from "./agent.js";
import { OutputValidationError } from "./output-validation-error.js";

// Structured output over the wire: what the real `openai` client sends to the provider.
let server: FakeLLMServer | undefined;
afterEach(() => server?.close());

const report = z.object({ summary: z.string(), risks: z.array(z.string()) });
const answer = { summary: "Stable.", risks: ["rates"] };

function agentOn(
  fake: FakeLLMServer,
  structuredOutputs?: StructuredOutputsMode,
  logger: CapturingLogger = createCapturingLogger(),
) {
  const llm = new OpenAIChatModel({
    baseURL: fake.baseURL,
    apiKey: "sk-test-structured-0123456789",
    model: "test-model",
    ...(structuredOutputs ? { structuredOutputs } : {}),
    logger,
  });
  return new Agent({ description: "You are an analyst.", llm, toolsPath: false, logger });
}

const fallbackLines = (logger: CapturingLogger) =>
  logger.infos.filter((line) => line.includes("refused response_format"));

describe("structured output through OpenAIChatModel", () => {
  it("sends response_format json_schema when structured outputs are on", async () => {
    server = await startFakeLLMServer({ replies: [JSON.stringify(answer)] });
    const result = await agentOn(server, "on").invoke("Report.", { output: report });

    expect(result.output).toEqual(answer);
    expect(server.chatRequests[0]?.response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "output",
        strict: true,
        schema: {
          type: "object",
          properties: {
            summary: { type: "string" },
            risks: { type: "array", items: { type: "string" } },
          },
          required: ["summary", "risks"],
          additionalProperties: false,
        },
      },
    });
  });

  it("puts the schema in the prompt and sends no response_format when they are off", async () => {
    server = await startFakeLLMServer({ replies: [JSON.stringify(answer)] });
    const result = await agentOn(server, "off").invoke("Report.", { output: report });

    expect(result.output).toEqual(answer);
    const request = server.chatRequests[0];
    expect(request).not.toHaveProperty("response_format");
    expect(JSON.stringify(request?.messages[0])).toContain("risks");
  });

  it("retries once over the wire, then throws OutputValidationError", async () => {
    server = await startFakeLLMServer({ replies: ['{"summary": 1}', "not json"] });
    const error = await agentOn(server, "on")
      .invoke("Report.", { output: report })
      .catch((caught: unknown) => caught);

    expect(OutputValidationError.isInstance(error)).toBe(true);
    expect((error as OutputValidationError).text).toBe("not json");
    expect(server.chatRequests).toHaveLength(2);
    expect(JSON.stringify(server.chatRequests[1]?.messages.at(-1))).toContain("summary");
  });

  it("by default keeps json_schema for a provider that accepts it", async () => {
    server = await startFakeLLMServer({ defaultReply: JSON.stringify(answer) });
    const logger = createCapturingLogger();
    const agent = agentOn(server, undefined, logger);
    await agent.invoke("Report.", { output: report });
    await agent.invoke("Report again.", { output: report });
    expect(server.chatRequests.map((body) => body.response_format?.type)).toEqual([
      "json_schema",
      "json_schema",
    ]);
    expect(fallbackLines(logger)).toEqual([]);
  });

  it("by default, against a provider refusing response_format, falls back to the prompt once, logs it once, and asks the next run straight in the prompt", async () => {
    server = await startFakeLLMServer({
      defaultReply: JSON.stringify(answer),
      refusesResponseFormat: true,
    });
    const logger = createCapturingLogger();
    const agent = agentOn(server, undefined, logger);
    const first = await agent.invoke("Report.", { output: report });
    expect(first.output).toEqual(answer);
    const second = await agentOn(server, undefined, logger).invoke("Report again.", {
      output: report,
    });
    expect(second.output).toEqual(answer);

    const sent = server.chatRequests.map((body) => ({
      responseFormat: body.response_format?.type,
      schemaInPrompt: JSON.stringify(body.messages[0]).includes("risks"),
    }));
    expect(sent).toEqual([
      { responseFormat: "json_schema", schemaInPrompt: false },
      { responseFormat: undefined, schemaInPrompt: true },
      { responseFormat: undefined, schemaInPrompt: true },
    ]);
    expect(fallbackLines(logger)).toHaveLength(1);
  });

  it("after the fallback, still retries an answer that does not match once, in the prompt form", async () => {
    server = await startFakeLLMServer({
      replies: ["Stable, with rate risk.", JSON.stringify(answer)],
      refusesResponseFormat: true,
    });
    const result = await agentOn(server).invoke("Report.", { output: report });
    expect(result.output).toEqual(answer);
    expect(server.chatRequests.map((body) => body.response_format?.type)).toEqual([
      "json_schema",
      undefined,
      undefined,
    ]);
    const system = String(server.chatRequests[2]?.messages[0]?.content);
    expect(system.split("matching this JSON Schema").length - 1).toBe(1);
  });

  it("reads LLM_STRUCTURED_OUTPUTS when the model is made, the option winning over it", async () => {
    server = await startFakeLLMServer({ defaultReply: JSON.stringify(answer) });
    const previous = process.env.LLM_STRUCTURED_OUTPUTS;
    process.env.LLM_STRUCTURED_OUTPUTS = "off";
    try {
      await agentOn(server).invoke("Report.", { output: report });
      await agentOn(server, "on").invoke("Report.", { output: report });
    } finally {
      if (previous === undefined) delete process.env.LLM_STRUCTURED_OUTPUTS;
      else process.env.LLM_STRUCTURED_OUTPUTS = previous;
    }
    expect(server.chatRequests.map((body) => body.response_format?.type)).toEqual([
      undefined,
      "json_schema",
    ]);
  });
});
