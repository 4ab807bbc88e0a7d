import { describe, expect, it } from "vitest";
import { AbortedError } from "../error/aborted-error.js";
import { ModelTimeoutError } from "../error/model-timeout-error.js";
import { silentLogger } from "../log/logger.js";
import type { ChatStreamPart } from "./chat-model.js";
import { OpenAIChatModel } from "./openai-chat-model.js";

// A provider that never stops: each test's only way to end is the total deadline, so nothing
// here depends on how fast the machine is.
const never = (_input: unknown, init?: RequestInit) =>
  new Promise<Response>((_, reject) => {
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
  });

/** An answer whose stream sends a text delta whenever read, forever. */
const endlessStream = async (_input: unknown, init?: RequestInit) => {
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (init?.signal?.aborted) {
        controller.error(init.signal.reason);
        return;
      }
      const chunk = {
        id: "c",
        object: "chat.completion.chunk",
        created: 0,
        model: "m",
        choices: [{ index: 0, delta: { content: `${index++} ` }, finish_reason: null }],
      };
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
};

function model(fetch: typeof globalThis.fetch, totalTimeoutMs?: number) {
  return new OpenAIChatModel({
    apiKey: "sk-deadline-test-000000",
    baseURL: "http://127.0.0.1:9/v1",
    timeoutMs: 600_000,
    maxRetries: 0,
    logger: silentLogger,
    fetch,
    ...(totalTimeoutMs === undefined ? {} : { totalTimeoutMs }),
  });
}

describe("OpenAIChatModel total deadline", () => {
  it("defaults to ten minutes", () => {
    expect(model(never as typeof fetch).totalTimeoutMs).toBe(600_000);
  });

  it("ends a generate call whose answer never comes, though each request may wait longer", async () => {
    const error = await model(never as typeof fetch, 30)
      .generate({ messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(ModelTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: "timeout", timeoutMs: 30 });
  });

  it("ends a stream that keeps sending chunks and never finishes", async () => {
    const parts: ChatStreamPart[] = [];
    const error = await (async () => {
      for await (const part of model(endlessStream as typeof fetch, 50).stream({
        messages: [{ role: "user", content: "hi" }],
      })) {
        parts.push(part);
      }
    })().catch((caught: unknown) => caught);
    expect(ModelTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ timeoutMs: 50 });
  });

  it("still reports the caller's abort as an abort", async () => {
    const controller = new AbortController();
    const call = model(never as typeof fetch, 600_000).generate({
      messages: [{ role: "user", content: "hi" }],
      signal: controller.signal,
    });
    controller.abort();
    await expect(call).rejects.toSatisfy(AbortedError.isInstance);
  });
});
