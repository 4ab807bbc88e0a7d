import { describe, expect, it } from "vitest";
import {
  parseCompletion,
  StreamAssembler,
  toFinishReason,
  toOpenAIMessages,
  toUsage,
} from "./openai-chat-model-wire.js";

describe("OpenAI wire mapping", () => {
  it("maps finish reasons, folding unknown ones into other", () => {
    expect(
      ["stop", "length", "tool_calls", "content_filter", "function_call", "eos", null].map(
        toFinishReason,
      ),
    ).toEqual(["stop", "length", "tool_calls", "content_filter", "tool_calls", "other", "other"]);
  });

  it("maps usage, summing a missing total and zeroing what is absent", () => {
    expect(toUsage({ prompt_tokens: 4, completion_tokens: 2 })).toEqual({
      inputTokens: 4,
      outputTokens: 2,
      totalTokens: 6,
    });
    expect(toUsage(null)).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it("sends an assistant message without tool calls with text content", () => {
    expect(toOpenAIMessages([{ role: "assistant", content: null }])).toEqual([
      { role: "assistant", content: "" },
    ]);
  });

  it("tolerates tool calls without ids or with object arguments", () => {
    const parsed = parseCompletion({
      choices: [
        {
          message: {
            content: null,
            tool_calls: [{ function: { name: "t", arguments: { a: 1 } } }],
          },
          finish_reason: "tool_calls",
        },
      ],
    });
    expect(parsed.ok).toBe(true);
    const call = parsed.ok ? parsed.response.message.toolCalls?.[0] : undefined;
    expect(call?.id).toMatch(/^call_/);
    expect(call?.arguments).toBe('{"a":1}');
  });

  it("explains what is wrong with a body that is not a chat completion", () => {
    expect(parseCompletion("<html>")).toEqual({
      ok: false,
      detail: "expected a chat completion JSON object, got text",
    });
    expect(parseCompletion({ choices: [] })).toMatchObject({ ok: false });
    expect(parseCompletion({ choices: [{ message: { content: 42 } }] })).toMatchObject({
      ok: false,
    });
  });

  it("assembles tool calls by index, whatever order their deltas arrive in", () => {
    const assembler = new StreamAssembler();
    const delta = (toolCalls: unknown[], finish: string | null = null) => ({
      choices: [{ delta: { tool_calls: toolCalls }, finish_reason: finish }],
    });
    assembler.push(delta([{ index: 1, id: "b", function: { name: "second", arguments: "" } }]));
    assembler.push(delta([{ index: 0, id: "a", function: { name: "first", arguments: '{"x"' } }]));
    assembler.push(delta([{ index: 0, function: { arguments: ":1}" } }]));
    expect(assembler.finished).toBe(false);
    assembler.push(delta([{ index: 1, function: { arguments: "{}" } }], "tool_calls"));
    expect(assembler.finished).toBe(true);
    expect(assembler.end()).toEqual([
      { type: "tool-call", toolCall: { id: "a", name: "first", arguments: '{"x":1}' } },
      { type: "tool-call", toolCall: { id: "b", name: "second", arguments: "{}" } },
      {
        type: "finish",
        finishReason: "tool_calls",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      },
    ]);
    expect(assembler.push("not a chunk")).toBe("a stream chunk is not a JSON object");
  });
});
