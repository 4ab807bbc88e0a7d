import { createCapturingLogger, type FakeLLMServer, startFakeLLMServer } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as weatherTools from "../../test/fixtures/weather-tools.js";
import { OpenAIChatModel } from "../model/openai-chat-model.js";
import { temporaryDirectory } from "../registry/test-temporary-directory.js";
import { Agent } from "./agent.js";
import type { ToolCallingMode } from "./prompt.js";

// Reasoning models behind OpenAI-compatible APIs: content as parts, reasoning beside it.
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

function agentOn(fake: FakeLLMServer, toolCalling: ToolCallingMode) {
  const logger = createCapturingLogger();
  const llm = new OpenAIChatModel({
    baseURL: fake.baseURL,
    apiKey: "sk-test-reasoning-0123",
    model: "test-model",
    logger,
  });
  return new Agent({
    description: "You are helpful.",
    llm,
    tools: [weatherTools],
    cwd: dir,
    logger,
    toolCalling,
  });
}

const weatherCall = JSON.stringify({
  tool_name: "get_weather",
  tool_type: "module",
  module_path: "inline",
  arguments: { city: "Paris" },
});

describe("Agent with a reasoning model", () => {
  it("runs JSON tool calling on content parts, never parsing the reasoning as a call", async () => {
    server = await startFakeLLMServer({
      contentFormat: "parts",
      replies: [
        {
          // A call written in the reasoning must not run: only the answer's text counts.
          reasoning: `I could call {"tool_name":"add","arguments":{"a":1,"b":2}} but the weather is asked.`,
          content: `\`\`\`json\n${weatherCall}\n\`\`\``,
        },
        { reasoning: "The tool said 21 degrees.", content: "It is 21 degrees in Paris." },
      ],
    });
    const result = await agentOn(server, "json").invoke("Weather in Paris?");
    expect(result.content).toBe("It is 21 degrees in Paris.");
    expect(result.reasoning).toBe("The tool said 21 degrees.");
    expect(result.toolCalls.map((call) => [call.toolName, call.output])).toEqual([
      ["get_weather", "Paris: 21 degrees celsius"],
    ]);
    // Reasoning is not sent back: the history holds the answers' text only.
    const history = JSON.stringify(server.chatRequests[1]?.messages);
    expect(history).not.toContain("I could call");
  });

  it("exposes the final answer's reasoning in native mode", async () => {
    server = await startFakeLLMServer({
      contentFormat: "reasoning-field",
      replies: [{ reasoning: "Simple greeting.", content: "Hello!" }],
    });
    const result = await agentOn(server, "native").invoke("Hi");
    expect(result).toMatchObject({ content: "Hello!", reasoning: "Simple greeting." });
  });

  it("leaves reasoning unset when the model sends none", async () => {
    server = await startFakeLLMServer({ contentFormat: "parts", replies: ["Hello!"] });
    const result = await agentOn(server, "native").invoke("Hi");
    expect(result.content).toBe("Hello!");
    expect(result).not.toHaveProperty("reasoning");
  });
});
