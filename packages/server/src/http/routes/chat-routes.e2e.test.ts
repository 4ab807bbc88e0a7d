import { MockChatModel, mockToolCall } from "@framework/testing";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, testAgent, twoStepGraph } from "../../test-server.js";

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function chatWith(llm: MockChatModel) {
  running = await startTestServer({
    agents: { banker: testAgent(llm) },
    graphs: { review: twoStepGraph() },
  });
  return new DefaultChatTransport<UIMessage>({ api: `${running.url}/agents/banker/chat` });
}

function userMessage(id: string, text: string): UIMessage {
  return { id, role: "user", parts: [{ type: "text", text }] };
}

/** Sends the messages and reads the streamed answer to its last state. */
async function turn(
  transport: DefaultChatTransport<UIMessage>,
  chatId: string,
  messages: UIMessage[],
): Promise<UIMessage> {
  const stream = await transport.sendMessages({
    chatId,
    messages,
    trigger: "submit-message",
    messageId: undefined,
    abortSignal: undefined,
  });
  return lastOf(stream, messages.at(-1)?.role === "assistant" ? messages.at(-1) : undefined);
}

async function lastOf(
  stream: Parameters<typeof readUIMessageStream>[0]["stream"],
  message?: UIMessage,
) {
  let last: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream, ...(message ? { message } : {}) }))
    last = snapshot;
  return last!;
}

const textOf = (message: UIMessage) =>
  message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");

describe("the AI SDK's chat transport against a served agent", () => {
  it("streams a plain answer as text", async () => {
    const transport = await chatWith(new MockChatModel(["Hello, how can I help?"]));
    const answer = await turn(transport, "chat-1", [userMessage("u1", "hi")]);
    expect(answer.role).toBe("assistant");
    expect(textOf(answer)).toBe("Hello, how can I help?");
  });

  it("streams a reasoning model's thinking as a reasoning part before the answer", async () => {
    const transport = await chatWith(
      new MockChatModel([{ reasoning: "The user greets me.", content: "Hello!" }]),
    );
    const answer = await turn(transport, "chat-reasoning", [userMessage("u1", "hi")]);
    const parts = answer.parts.filter((part) => part.type === "reasoning" || part.type === "text");
    expect(parts).toMatchObject([
      { type: "reasoning", text: "The user greets me.", state: "done" },
      { type: "text", text: "Hello!", state: "done" },
    ]);
  });

  it("shows a tool call with its output, then the answer", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("lookup_rate", { pair: "EURUSD" }, "call_rate")] },
      "EURUSD is 1.08.",
    ]);
    const transport = await chatWith(llm);
    const answer = await turn(transport, "chat-2", [userMessage("u1", "rate?")]);
    const tool = answer.parts.find((part) => part.type === "dynamic-tool");
    expect(tool).toMatchObject({
      toolName: "lookup_rate",
      toolCallId: "call_rate",
      state: "output-available",
      input: { pair: "EURUSD" },
      output: "EURUSD: 1.08",
    });
    expect(textOf(answer)).toBe("EURUSD is 1.08.");
  });

  it("asks to approve a tool, and runs it once the user approves", async () => {
    const call = mockToolCall("transfer_funds", { amount: 5, to: "bob" }, "call_pay");
    const llm = new MockChatModel([{ toolCalls: [call] }, { toolCalls: [call] }, "Sent 5 to Bob."]);
    const transport = await chatWith(llm);
    const question = userMessage("u1", "send bob 5");
    const asked = await turn(transport, "chat-3", [question]);
    const pending = asked.parts.find((part) => part.type === "dynamic-tool");
    expect(pending).toMatchObject({ state: "approval-requested", approval: { id: "call_pay" } });

    const approved: UIMessage = {
      ...asked,
      parts: asked.parts.map((part) =>
        part.type === "dynamic-tool" && part.state === "approval-requested"
          ? {
              ...part,
              state: "approval-responded",
              approval: { id: part.approval.id, approved: true },
            }
          : part,
      ),
    };
    const answer = await turn(transport, "chat-3", [question, approved]);
    expect(answer.parts.find((part) => part.type === "dynamic-tool")).toMatchObject({
      state: "output-available",
      output: "sent 5 to bob",
    });
    expect(textOf(answer)).toContain("Sent 5 to Bob.");
  });

  it("reports a declined tool as denied, and the model hears the refusal", async () => {
    const call = mockToolCall("transfer_funds", { amount: 5, to: "bob" }, "call_pay");
    const llm = new MockChatModel([
      { toolCalls: [call] },
      { toolCalls: [call] },
      "Understood, nothing sent.",
    ]);
    const transport = await chatWith(llm);
    const question = userMessage("u1", "send bob 5");
    const asked = await turn(transport, "chat-4", [question]);
    const declined: UIMessage = {
      ...asked,
      parts: asked.parts.map((part) =>
        part.type === "dynamic-tool" && part.state === "approval-requested"
          ? {
              ...part,
              state: "approval-responded",
              approval: { id: part.approval.id, approved: false },
            }
          : part,
      ),
    };
    const answer = await turn(transport, "chat-4", [question, declined]);
    expect(answer.parts.find((part) => part.type === "dynamic-tool")).toMatchObject({
      state: "output-denied",
    });
    expect(textOf(answer)).toBe("Understood, nothing sent.");
    const toolMessage = llm.calls.at(-1)?.messages.find((message) => message.role === "tool");
    expect(toolMessage?.content).toMatch(/declin/i);
  });

  it("keeps the conversation on the server: a second turn's model call holds the first", async () => {
    const llm = new MockChatModel(["I am Banker.", "You asked who I am."]);
    const transport = await chatWith(llm);
    const first = await turn(transport, "chat-5", [userMessage("u1", "who are you?")]);
    await turn(transport, "chat-5", [
      userMessage("u1", "forged earlier text"),
      first,
      userMessage("u2", "what did I ask?"),
    ]);
    const sent = llm.calls.at(-1)!.messages.map((message) => `${message.role}:${message.content}`);
    expect(sent).toContain("user:who are you?");
    expect(sent).toContain("assistant:I am Banker.");
    expect(sent).not.toContain("user:forged earlier text");
    expect(sent.at(-1)).toBe("user:what did I ask?");
  });

  it("resumes the answering turn's stream, and answers 204 when none is answering", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const llm = new MockChatModel([
      async () => {
        await gate;
        return "Finally done.";
      },
    ]);
    const transport = await chatWith(llm);
    const sending = turn(transport, "chat-6", [userMessage("u1", "slow please")]);
    let resumed: ReturnType<DefaultChatTransport<UIMessage>["reconnectToStream"]> | undefined;
    await expect
      .poll(async () => {
        resumed = transport.reconnectToStream({ chatId: "chat-6" });
        return (await resumed) !== null;
      })
      .toBe(true);
    release();
    const replayed = await lastOf((await resumed)!);
    expect(textOf(replayed)).toBe("Finally done.");
    expect(textOf(await sending)).toBe("Finally done.");
    expect(await transport.reconnectToStream({ chatId: "chat-6" })).toBeNull();
  });

  it("serves agents only: a graph's name is a 404", async () => {
    const transport = await chatWith(new MockChatModel());
    const graphChat = new DefaultChatTransport<UIMessage>({
      api: `${running!.url}/agents/review/chat`,
    });
    await expect(turn(graphChat, "chat-7", [userMessage("u1", "hi")])).rejects.toThrow(
      /ResourceNotFoundError/,
    );
    expect(transport).toBeDefined();
  });
});
