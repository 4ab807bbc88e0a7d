import { AbortedError, type ChatRequest, type ChatStreamPart } from "@framework/core";
import { describe, expect, it } from "vitest";
import { MockChatModel } from "./mock-chat-model.js";
import { mockToolCall } from "./scripted-reply.js";

const ask = (content: string, signal?: AbortSignal): ChatRequest => ({
  messages: [{ role: "user", content }],
  ...(signal ? { signal } : {}),
});

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("MockChatModel", () => {
  it("answers scripted text, then tool calls, in order", async () => {
    const llm = new MockChatModel([
      "plain answer",
      {
        content: "calling",
        toolCalls: [
          mockToolCall("paper_research", { topic: "agents" }),
          mockToolCall("raw", "{oops"),
        ],
      },
    ]);
    const first = await llm.generate(ask("one"));
    expect(first.message).toEqual({ role: "assistant", content: "plain answer" });
    expect(first.finishReason).toBe("stop");
    const second = await llm.generate(ask("two"));
    expect(second.finishReason).toBe("tool_calls");
    expect(second.message.toolCalls).toEqual([
      { id: "call_1_0", name: "paper_research", arguments: '{"topic":"agents"}' },
      { id: "call_1_1", name: "raw", arguments: "{oops" },
    ]);
  });

  it("uses explicit ids and usage, the usage option, or a stable estimate", async () => {
    const llm = new MockChatModel(
      [
        {
          toolCalls: [mockToolCall("t", {}, "my-id")],
          usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
        },
        "defaulted",
      ],
      { usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30 } },
    );
    const first = await llm.generate(ask("x"));
    expect(first.message.toolCalls?.[0]?.id).toBe("my-id");
    expect(first.usage).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: 3 });
    expect((await llm.generate(ask("x"))).usage.totalTokens).toBe(30);

    const estimating = new MockChatModel(["12345678"]);
    expect((await estimating.generate(ask("abcd"))).usage).toEqual({
      inputTokens: 1,
      outputTokens: 2,
      totalTokens: 3,
    });
  });

  it("computes replies with functions of the request and call index", async () => {
    const llm = new MockChatModel([
      (request, index) => `echo ${index}: ${request.messages.at(-1)?.content}`,
      async (_request, index) => ({ content: `async ${index}` }),
    ]);
    expect((await llm.generate(ask("hello"))).message.content).toBe("echo 0: hello");
    expect((await llm.generate(ask("again"))).message.content).toBe("async 1");
  });

  it("throws a scripted error and records it", async () => {
    const boom = new Error("provider down");
    const llm = new MockChatModel([boom, "after"]);
    expect(await failureOf(llm.generate(ask("x")))).toBe(boom);
    expect(llm.records[0]?.error).toBe(boom);
    expect((await llm.generate(ask("y"))).message.content).toBe("after");
  });

  it("falls back to defaultReply, or fails naming the call index", async () => {
    const withDefault = new MockChatModel(["first"], { defaultReply: "again and again" });
    await withDefault.generate(ask("1"));
    expect((await withDefault.generate(ask("2"))).message.content).toBe("again and again");
    expect((await withDefault.generate(ask("3"))).message.content).toBe("again and again");

    const strict = new MockChatModel(["only"]);
    await strict.generate(ask("1"));
    const failure = await failureOf(strict.generate(ask("2")));
    expect((failure as Error).message).toMatch(/no scripted reply for call #1/);
  });

  it("records deep copies of every call with timestamps", async () => {
    const llm = new MockChatModel(["a", "b"], { modelId: "scripted" });
    const request = ask("original");
    await llm.generate(request);
    request.messages.push({ role: "user", content: "mutated later" });
    await llm.generate({
      ...ask("second"),
      tools: [{ name: "t", description: "d", parameters: {} }],
    });
    expect(llm.modelId).toBe("scripted");
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[0]?.messages).toEqual([{ role: "user", content: "original" }]);
    expect(llm.calls[1]?.tools?.[0]?.name).toBe("t");
    for (const record of llm.records) {
      expect(record.endedAt).toBeGreaterThanOrEqual(record.startedAt);
      expect(record.response).toBeDefined();
    }
  });

  it("does not record the signal", async () => {
    const llm = new MockChatModel(["a"]);
    await llm.generate(ask("x", new AbortController().signal));
    expect(llm.calls[0]).not.toHaveProperty("signal");
  });

  it("honours the signal, before and during the latency wait", async () => {
    const llm = new MockChatModel(["never"], { latencyMs: 60_000 });
    expect(
      AbortedError.isInstance(await failureOf(llm.generate(ask("x", AbortSignal.abort())))),
    ).toBe(true);
    const controller = new AbortController();
    const pending = llm.generate(ask("y", controller.signal));
    controller.abort();
    const failure = await failureOf(pending);
    expect(AbortedError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ operation: "chat completion" });
  });

  it("honours the signal while a function reply is pending", async () => {
    const llm = new MockChatModel([() => new Promise<string>(() => {})]);
    const controller = new AbortController();
    const pending = llm.generate(ask("x", controller.signal));
    controller.abort();
    expect(AbortedError.isInstance(await failureOf(pending))).toBe(true);
  });

  it("streams text in deltas, then tool calls, then finish", async () => {
    const llm = new MockChatModel([
      { content: "Hello streaming world", toolCalls: [mockToolCall("t", { a: 1 })] },
    ]);
    const parts: ChatStreamPart[] = [];
    for await (const part of llm.stream(ask("x"))) parts.push(part);
    const text = parts.flatMap((part) => (part.type === "text-delta" ? [part.text] : []));
    expect(text).toEqual(["Hello ", "streaming ", "world"]);
    expect(parts.slice(-2)).toEqual([
      { type: "tool-call", toolCall: { id: "call_0_0", name: "t", arguments: '{"a":1}' } },
      {
        type: "finish",
        finishReason: "tool_calls",
        usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
      },
    ]);
    expect(llm.calls).toHaveLength(1);
  });

  it("accepts more replies while running", async () => {
    const llm = new MockChatModel();
    llm.addReplies("late");
    expect((await llm.generate(ask("x"))).message.content).toBe("late");
  });

  it("returns scripted reasoning apart from the answer, and streams it first", async () => {
    const reply = { content: "Paris.", reasoning: "France's capital." };
    const llm = new MockChatModel([reply, reply]);
    const response = await llm.generate(ask("x"));
    expect(response).toMatchObject({
      message: { content: "Paris." },
      reasoning: "France's capital.",
    });
    const parts: ChatStreamPart[] = [];
    for await (const part of llm.stream(ask("x"))) parts.push(part);
    expect(parts.map((part) => part.type)).toEqual([
      "reasoning-delta",
      "reasoning-delta",
      "text-delta",
      "finish",
    ]);
  });
});
