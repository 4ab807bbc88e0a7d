import { createCapturingLogger, MockChatModel, mockToolCall } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { FrameworkError } from "../error/framework-error.js";
import { temporaryDirectory } from "../registry/test-temporary-directory.js";
import { primaryFunction } from "../tool/primary-function.js";
import { Agent } from "./agent.js";
import { OutputValidationError } from "./output-validation-error.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

const recommendation = z.object({
  action: z.enum(["buy", "hold", "sell"]),
  allocation: z.number().min(0).max(1),
  rationale: z.string(),
});

const price = primaryFunction(
  {
    name: "get_price",
    description: "The price of a ticker.",
    parameters: z.object({ ticker: z.string() }),
    returns: "float",
  },
  ({ ticker }) => (ticker === "ACME" ? 12.5 : 0),
);

function agentWith(llm: MockChatModel) {
  return new Agent({
    description: "You are an analyst.",
    llm,
    tools: [price],
    toolsPath: false,
    cwd: dir,
    logger: createCapturingLogger(),
  });
}

const valid = { action: "buy", allocation: 0.2, rationale: "Cheap." } as const;

describe("structured output", () => {
  it("returns the validated answer, typed from the schema, after tool calls", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("get_price", { ticker: "ACME" })] },
      JSON.stringify(valid),
    ]);
    const result = await agentWith(llm).invoke("Should I buy ACME?", { output: recommendation });

    expectTypeOf(result.output).toEqualTypeOf<z.output<typeof recommendation>>();
    expect(result.output).toEqual(valid);
    expect(result.toolCalls.map((call) => call.output)).toEqual(["12.5"]);
    // Without structured outputs the model learns the schema from the prompt only.
    const system = llm.calls[0]?.messages[0]?.content ?? "";
    expect(system).toContain('"allocation"');
    expect(llm.calls.every((call) => call.responseFormat === undefined)).toBe(true);
  });

  it("accepts JSON in a Markdown code fence", async () => {
    const llm = new MockChatModel([`\`\`\`json\n${JSON.stringify(valid)}\n\`\`\``]);
    const result = await agentWith(llm).invoke("ACME?", { output: recommendation });
    expect(result.output).toEqual(valid);
  });

  it("sends the response format, not a prompt section, to models that enforce it", async () => {
    const llm = new MockChatModel([JSON.stringify(valid)], { structuredOutputs: true });
    await agentWith(llm).invoke("ACME?", { output: recommendation });
    const format = llm.calls[0]?.responseFormat;
    expect(format).toMatchObject({ type: "json", name: "output", strict: true });
    expect(format?.schema).toMatchObject({ required: ["action", "allocation", "rationale"] });
    expect(llm.calls[0]?.messages[0]?.content).not.toContain('"allocation"');
  });

  it("marks a schema with optional fields non-strict, which providers would reject", async () => {
    const llm = new MockChatModel([JSON.stringify({ a: 1 })], { structuredOutputs: true });
    const schema = z.object({ a: z.number(), b: z.string().optional() });
    const result = await agentWith(llm).invoke("?", { output: schema });
    expect(llm.calls[0]?.responseFormat?.strict).toBe(false);
    expect(result.output).toEqual({ a: 1 });
  });

  it("sends an invalid answer back once with the issues and uses the corrected one", async () => {
    const llm = new MockChatModel([
      JSON.stringify({ ...valid, allocation: 3 }),
      JSON.stringify(valid),
    ]);
    const result = await agentWith(llm).invoke("ACME?", { output: recommendation });

    expect(result.output).toEqual(valid);
    expect(result.content).toBe(JSON.stringify(valid));
    const retry = llm.calls[1]?.messages.at(-1);
    expect(retry?.role).toBe("user");
    expect(retry?.content).toContain("allocation:");
    expect(llm.calls[1]?.responseFormat?.name).toBe("output");
    expect(result.messages.at(-1)).toEqual({ role: "assistant", content: JSON.stringify(valid) });
    expect(result.usage.totalTokens).toBeGreaterThan(0);
  });

  it("retries an answer that is not JSON at all", async () => {
    const llm = new MockChatModel(["I would buy.", JSON.stringify(valid)]);
    const result = await agentWith(llm).invoke("ACME?", { output: recommendation });
    const retry = llm.calls[1]?.messages.at(-1)?.content;
    expect(retry).toContain("(output): The answer is not valid JSON.");
    // With the schema, for a provider that ignored response_format without refusing it.
    expect(retry).toContain(JSON.stringify(z.toJSONSchema(recommendation).properties));
    expect(result.output).toEqual(valid);
  });

  it("throws OutputValidationError with the raw text and issues after a second failure", async () => {
    const llm = new MockChatModel(["I would buy.", '{"action":"maybe"}']);
    const error = await agentWith(llm)
      .invoke("ACME?", { output: recommendation })
      .catch((caught: unknown) => caught);

    expect(OutputValidationError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(FrameworkError);
    const failure = error as OutputValidationError;
    expect(failure.name).toBe("OutputValidationError");
    expect(failure.text).toBe('{"action":"maybe"}');
    expect(failure.issues.map((issue) => issue.path)).toEqual([
      "action",
      "allocation",
      "rationale",
    ]);
    expect(llm.calls).toHaveLength(2);
  });

  it("hands the rejected run to the caller on the error: tool calls, conversation, usage", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("get_price", { ticker: "ACME" })] },
      "I would buy.",
      "Still buying.",
    ]);
    const error = await agentWith(llm)
      .invoke("ACME?", { output: recommendation })
      .catch((caught: unknown) => caught);

    const result = (error as OutputValidationError).result;
    expect(result?.content).toBe("Still buying.");
    expect(result?.toolCalls.map((call) => [call.toolName, call.result])).toEqual([
      ["get_price", 12.5],
    ]);
    // The conversation a caller can save: no system prompt, the retry and the last answer.
    expect(result?.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(result?.messages.at(-1)).toEqual({ role: "assistant", content: "Still buying." });
    expect(result?.usage.totalTokens).toBe(
      llm.records.reduce((sum, record) => sum + (record.response?.usage.totalTokens ?? 0), 0),
    );
  });

  it("leaves runs without a schema untouched", async () => {
    const llm = new MockChatModel(["Plain text."]);
    const result = await agentWith(llm).invoke("Hi");
    expect(result).not.toHaveProperty("output");
    expect(llm.calls[0]?.messages[0]?.content).not.toContain("JSON Schema");
  });
});
