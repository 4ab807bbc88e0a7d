import { createCapturingLogger, MockChatModel, mockToolCall } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { TooManyToolCallsError } from "../error/too-many-tool-calls-error.js";
import { sanitizeLogMessage } from "../log/sanitize-log-message.js";
import type { ToolMessage } from "../model/chat-model.js";
import { temporaryDirectory } from "../registry/test-temporary-directory.js";
import { primaryFunction } from "../tool/primary-function.js";
import { Agent, type AgentOptions } from "./agent.js";

// What a hostile or broken model (or a tool with an odd result) can send through the loop:
// none of it may make invoke reject.
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

const echo = primaryFunction(
  {
    name: "echo",
    description: "Echo a value.",
    parameters: z.object({ value: z.unknown() }),
    returns: "any",
  },
  ({ value }) => value,
);

function agentWith(llm: MockChatModel, options: Partial<AgentOptions> = {}) {
  const logger = createCapturingLogger();
  const agent = new Agent({
    description: "You are a test agent.",
    llm,
    tools: [echo],
    cwd: dir,
    logger,
    ...options,
  });
  return { agent, logger };
}

/** What the model was sent as the last message of its call number `index`. */
const lastMessageOf = (llm: MockChatModel, index: number) =>
  llm.calls[index]?.messages.at(-1) as ToolMessage | undefined;

const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

describe("the tool loop under hostile input", () => {
  it("answers with a JSON-mode reply nested 100,000 levels deep as plain text", async () => {
    const reply = `Here: ${nested(100_000)}`;
    const llm = new MockChatModel([reply]);
    const { agent } = agentWith(llm, { toolCalling: "json" });
    const result = await agent.invoke("hi");
    expect(result.content).toBe(reply);
    expect(result.toolCalls).toEqual([]);
  });

  it("runs a call whose arguments nest too deeply to log, and logs the call as sent", async () => {
    const args = `{"value": ${nested(20_000)}}`;
    const llm = new MockChatModel([{ toolCalls: [mockToolCall("echo", args, "c1")] }, "done"]);
    const { agent, logger } = agentWith(llm);
    const result = await agent.invoke("hi");
    expect(result.content).toBe("done");
    expect(result.toolCalls[0]?.ok).toBe(true);
    const output = lastMessageOf(llm, 1)?.content;
    expect(output).toContain("…[left out: nested deeper than 64 levels]");
    const asSent = JSON.stringify({
      tool_name: "echo",
      tool_type: "module",
      module_path: "inline",
      arguments: args,
    });
    expect(logger.infos).toContain(sanitizeLogMessage(`Executing tool call: ${asSent}`));
  });

  it("logs the start of a huge call, on one line, and how much more there was, not megabytes", async () => {
    const huge = "x".repeat(5_000_000);
    const llm = new MockChatModel([{ toolCalls: [mockToolCall("echo", { value: huge })] }, "done"]);
    const { agent, logger } = agentWith(llm);
    await agent.invoke("hi");
    const line = logger.infos.find((l) => l.startsWith("Executing tool call: "));
    expect(line?.length).toBeLessThan(2_100);
    expect(line).toMatch(/^Executing tool call: \{[^\n]+… \(49\d{5} more bytes\)$/);
  });

  it("sends a tool's result as JSON when its toModelOutput throws", async () => {
    const table = primaryFunction(
      {
        name: "table",
        description: "A table.",
        parameters: z.object({}),
        returns: "rows",
        toModelOutput: () => {
          throw new Error("summary failed");
        },
      },
      () => ({ rows: [1, 2], when: new Date(Number.NaN) }),
    );
    const llm = new MockChatModel([{ toolCalls: [mockToolCall("table", {}, "c1")] }, "done"]);
    const { agent, logger } = agentWith(llm, { tools: [table] });
    await expect(agent.invoke("hi")).resolves.toMatchObject({ content: "done" });
    expect(lastMessageOf(llm, 1)?.content).toBe('{"rows":[1,2],"when":"Invalid Date"}');
    expect(logger.lines).toContain(
      "toModelOutput of tool table failed, sending its result as JSON: summary failed",
    );
  });
});

describe("the per-reply tool call limit", () => {
  it("runs the first calls and answers the rest with an error result", async () => {
    const calls = Array.from({ length: 5 }, (_, i) => mockToolCall("echo", { value: i }, `c${i}`));
    const llm = new MockChatModel([{ toolCalls: calls }, "done"]);
    const { agent } = agentWith(llm, { maxToolCallsPerReply: 3 });
    const result = await agent.invoke("many");
    expect(result.toolCalls.map((c) => c.ok)).toEqual([true, true, true, false, false]);
    expect(TooManyToolCallsError.isInstance(result.toolCalls[4]?.error)).toBe(true);
    const answers = (llm.calls[1]?.messages ?? []).filter((m) => m.role === "tool");
    expect(answers.map((m) => (m as ToolMessage).toolCallId)).toEqual([
      "c0",
      "c1",
      "c2",
      "c3",
      "c4",
    ]);
    expect((answers[3] as ToolMessage).content).toBe(
      "Error: The reply asked for 5 tool calls; only the first 3 run per reply. Ask again for the ones still needed.",
    );
  });
});
