import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeLLMServer, startFakeLLMServer } from "./fake-llm-server.js";

const servers: FakeLLMServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(...args: Parameters<typeof startFakeLLMServer>) {
  const server = await startFakeLLMServer(...args);
  servers.push(server);
  return server;
}

const client = (server: FakeLLMServer) =>
  new OpenAI({ apiKey: "sk-fake-key", baseURL: server.baseURL, maxRetries: 0, logLevel: "off" });

const messages = [{ role: "user" as const, content: "Capital of France?" }];
const reply = { content: "Paris.", reasoning: "France's capital is Paris." };

async function rawMessage(server: FakeLLMServer): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages }),
  });
  const body = (await response.json()) as { choices: Array<{ message: Record<string, unknown> }> };
  return body.choices[0]?.message ?? {};
}

async function rawDeltas(server: FakeLLMServer): Promise<Array<Record<string, unknown>>> {
  const stream = await client(server).chat.completions.create({
    model: "m",
    messages,
    stream: true,
  });
  const deltas: Array<Record<string, unknown>> = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta as Record<string, unknown> | undefined;
    if (delta && Object.keys(delta).some((key) => key !== "role")) deltas.push(delta);
  }
  return deltas;
}

describe("the fake LLM server's content formats", () => {
  it("sends a string with reasoning_content by default, as DeepSeek and vLLM do", async () => {
    const server = await start([reply]);
    const message = await rawMessage(server);
    expect(message).toMatchObject({ content: "Paris.", reasoning_content: reply.reasoning });
  });

  it("sends Mistral's parts: a thinking part of text chunks, then a text part", async () => {
    const server = await start({ contentFormat: "parts", replies: [reply] });
    expect((await rawMessage(server)).content).toEqual([
      { type: "thinking", thinking: [{ type: "text", text: reply.reasoning }] },
      { type: "text", text: "Paris." },
    ]);
  });

  it("sends reasoning in a reasoning field, as OpenRouter and Groq do", async () => {
    const server = await start({ contentFormat: "reasoning-field", replies: [reply] });
    expect(await rawMessage(server)).toMatchObject({
      content: "Paris.",
      reasoning: reply.reasoning,
    });
  });

  it("streams parts as arrays of one part each, reasoning first", async () => {
    const server = await start({ contentFormat: "parts", replies: [reply] });
    const deltas = (await rawDeltas(server)).filter((delta) => Array.isArray(delta.content));
    expect(deltas[0]?.content).toEqual([
      { type: "thinking", thinking: [{ type: "text", text: "France's " }] },
    ]);
    expect(deltas.at(-1)?.content).toEqual([{ type: "text", text: "Paris." }]);
  });

  it("streams reasoning_content deltas before the text", async () => {
    const server = await start([reply]);
    const deltas = await rawDeltas(server);
    expect(deltas.map((delta) => delta.reasoning_content ?? "").join("")).toBe(reply.reasoning);
    expect(deltas.map((delta) => delta.content ?? "").join("")).toBe("Paris.");
  });
});
