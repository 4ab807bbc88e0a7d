import { uiMessageChunkSchema } from "ai";
import { describe, expect, it } from "vitest";
import type { RunEventRecord } from "../store/server-store.js";
import { chatTurnOf } from "./chat-request.js";
import { uiMessageRenderer } from "./ui-message-chunks.js";

let seq = 0;
const agent = (event: object): RunEventRecord => ({
  runId: "r",
  seq: ++seq,
  event: "events",
  data: { type: "agent", node: "agent", event },
});

function chunksOf(text: string): { type: string }[] {
  return text
    .split("\n\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice("data: ".length)));
}

describe("uiMessageRenderer", () => {
  it("writes chunks the AI SDK's own schema accepts, in the order its reader expects", async () => {
    const renderer = uiMessageRenderer({
      messageId: "m1",
      declinedToolCallIds: new Set(["c2"]),
      shownToolCallIds: new Set(),
    });
    const text = [
      agent({ type: "step-start", step: 1 }),
      agent({ type: "text-delta", text: "Let me " }),
      agent({ type: "text-delta", text: "check." }),
      agent({ type: "tool-call", toolCallId: "c1", toolName: "lookup", arguments: '{"a":1}' }),
      agent({ type: "tool-call", toolCallId: "c2", toolName: "pay", arguments: { amount: 5 } }),
      agent({
        type: "tool-result",
        toolCallId: "c1",
        toolName: "lookup",
        output: "1.08",
        isError: false,
        durationMs: 1,
      }),
      agent({
        type: "tool-result",
        toolCallId: "c2",
        toolName: "pay",
        output: "declined",
        isError: true,
        durationMs: 1,
      }),
      agent({ type: "step-finish", step: 1, usage: {}, finishReason: "tool_calls" }),
      {
        runId: "r",
        seq: ++seq,
        event: "error",
        data: { error: "NodeExecutionError", message: "boom" },
      },
    ]
      .map((record) => renderer.render(record))
      .join("");
    const end = renderer.end();
    expect(end.endsWith("data: [DONE]\n\n")).toBe(true);
    const chunks = chunksOf(text + end);
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-delta",
      "text-end",
      "tool-input-available",
      "tool-input-available",
      "tool-output-available",
      "tool-output-denied",
      "finish-step",
      "error",
      "finish",
    ]);
    const schema = uiMessageChunkSchema();
    for (const chunk of chunks) {
      const result = await schema.validate?.(chunk);
      expect(result?.success, JSON.stringify(chunk)).toBe(true);
    }
    expect(chunks[6]).toMatchObject({ input: { a: 1 }, dynamic: true });
  });

  it("writes the model's reasoning as reasoning parts, closed before the answer's text", async () => {
    const renderer = uiMessageRenderer({
      messageId: "m1",
      declinedToolCallIds: new Set(),
      shownToolCallIds: new Set(),
    });
    const text = [
      agent({ type: "step-start", step: 1 }),
      agent({ type: "reasoning-delta", text: "Hi means " }),
      agent({ type: "reasoning-delta", text: "hello." }),
      agent({ type: "text-delta", text: "Hello!" }),
      agent({ type: "step-finish", step: 1, usage: {}, finishReason: "stop" }),
    ]
      .map((record) => renderer.render(record))
      .join("");
    const chunks = chunksOf(text + renderer.end());
    expect(chunks).toEqual([
      { type: "start", messageId: "m1" },
      { type: "start-step" },
      { type: "reasoning-start", id: "m1-reasoning-1" },
      { type: "reasoning-delta", id: "m1-reasoning-1", delta: "Hi means " },
      { type: "reasoning-delta", id: "m1-reasoning-1", delta: "hello." },
      { type: "reasoning-end", id: "m1-reasoning-1" },
      { type: "text-start", id: "m1-text-2" },
      { type: "text-delta", id: "m1-text-2", delta: "Hello!" },
      { type: "text-end", id: "m1-text-2" },
      { type: "finish-step" },
      { type: "finish" },
    ]);
    const schema = uiMessageChunkSchema();
    for (const chunk of chunks) {
      expect((await schema.validate?.(chunk))?.success, JSON.stringify(chunk)).toBe(true);
    }
  });

  it("asks for approval with the tool call's id, and leaves out calls the client already shows", () => {
    const renderer = uiMessageRenderer({
      messageId: "m1",
      declinedToolCallIds: new Set(),
      shownToolCallIds: new Set(["c9"]),
    });
    const text =
      renderer.render(
        agent({ type: "tool-call", toolCallId: "c9", toolName: "pay", arguments: {} }),
      ) +
      renderer.render({
        runId: "r",
        seq: ++seq,
        event: "events",
        data: {
          type: "interrupt",
          node: "agent",
          value: { type: "tool-approval", call: { toolCallId: "c9" } },
        },
      });
    expect(chunksOf(text)).toEqual([
      { type: "start", messageId: "m1" },
      { type: "start-step" },
      { type: "tool-approval-request", approvalId: "c9", toolCallId: "c9" },
    ]);
  });
});

describe("chatTurnOf", () => {
  it("reads the next question, or the approval answered, from the last message only", () => {
    expect(
      chatTurnOf([
        { id: "u0", role: "user", parts: [{ type: "text", text: "old" }] },
        {
          id: "u1",
          role: "user",
          parts: [
            { type: "text", text: "new " },
            { type: "text", text: "one" },
          ],
        },
      ]),
    ).toEqual({ kind: "message", id: "u1", text: "new one" });
    expect(
      chatTurnOf([
        {
          id: "a1",
          role: "assistant",
          parts: [
            {
              type: "tool-pay",
              toolCallId: "c1",
              state: "approval-responded",
              approval: { id: "c1", approved: false },
            },
          ],
        },
      ]),
    ).toEqual({ kind: "approval", approvalId: "c1", approved: false });
    expect(
      chatTurnOf([{ id: "a1", role: "assistant", parts: [{ type: "text", text: "hi" }] }]),
    ).toBeUndefined();
    expect(chatTurnOf([{ id: "s", role: "system", parts: [] }])).toBeUndefined();
  });
});
