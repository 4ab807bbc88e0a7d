import { createCapturingLogger, type FakeLLMServer, startFakeLLMServer } from "@framework/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { OpenAIChatModel } from "../model/openai-chat-model.js";
import { Agent } from "./agent.js";
import { OutputValidationError } from "./output-validation-error.js";

// Structured output over the wire: what the real `openai` client sends to the provider.
let server: FakeLLMServer | undefined;
afterEach(() => server?.close());

const report = z.object({ summary: z.string(), risks: z.array(z.string()) });
const answer = { summary: "Stable.", risks: ["rates"] };

function agentOn(fake: FakeLLMServer, structuredOutputs: boolean) {
  const logger = createCapturingLogger();
  const llm = new OpenAIChatModel({
    baseURL: fake.baseURL,
    apiKey: "sk-test-structured-0123456789",
    model: "test-model",
    structuredOutputs,
    logger,
  });
  return new Agent({ description: "You are an analyst.", llm, toolsPath: false, logger });
}

describe("structured output through OpenAIChatModel", () => {
  it("sends response_format json_schema when the provider supports structured outputs", async () => {
    server = await startFakeLLMServer({ replies: [JSON.stringify(answer)] });
    const result = await agentOn(server, true).invoke("Report.", { output: report });

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

  it("puts the schema in the prompt and sends no response_format otherwise", async () => {
    server = await startFakeLLMServer({ replies: [JSON.stringify(answer)] });
    const result = await agentOn(server, false).invoke("Report.", { output: report });

    expect(result.output).toEqual(answer);
    const request = server.chatRequests[0];
    expect(request).not.toHaveProperty("response_format");
    expect(JSON.stringify(request?.messages[0])).toContain("risks");
  });

  it("retries once over the wire, then throws OutputValidationError", async () => {
    server = await startFakeLLMServer({ replies: ['{"summary": 1}', "not json"] });
    const error = await agentOn(server, true)
      .invoke("Report.", { output: report })
      .catch((caught: unknown) => caught);

    expect(OutputValidationError.isInstance(error)).toBe(true);
    expect((error as OutputValidationError).text).toBe("not json");
    expect(server.chatRequests).toHaveLength(2);
    expect(JSON.stringify(server.chatRequests[1]?.messages.at(-1))).toContain("summary");
  });
});
