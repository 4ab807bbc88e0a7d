import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { primaryFunction } from "@framework/core";
import { MockChatModel } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState, type StateOf } from "../state/state-definition.js";
import { AgentNode } from "./agent-node.js";
import { CrewAgent } from "./crew-agent.js";

// The names renamed in 0.2 keep working until the next minor version; each one is checked here
// through the public classes, so removing an alias early fails a test.

const ChatState = defineState({
  messages: reducer(
    z.array(z.object({ role: z.string(), content: z.string() })),
    appendReducer,
    () => [],
  ),
  answer: z.string().optional(),
});
type Chat = StateOf<typeof ChatState>;

class Assistant extends AgentNode<Chat> {
  async exec(state: Chat) {
    return { answer: (await this.invoke(state.messages.at(-1)?.content ?? "")).content };
  }
}

const systemPrompt = (llm: MockChatModel) => llm.calls[0]?.messages[0]?.content;

describe("deprecated aliases", () => {
  it("AgentNode's instruction option becomes its description and its system prompt", async () => {
    const llm = new MockChatModel(["hi"]);
    const node = new Assistant({ name: "a", llm, instruction: "You are terse.", toolsPath: false });
    expect(node.description).toBe("You are terse.");
    expect(node.instruction).toBe("You are terse.");
    await node.invoke("hello");
    expect(systemPrompt(llm)).toContain("You are terse.");
  });

  it("AgentNode's description is its system prompt, as Agent's is", async () => {
    const llm = new MockChatModel(["hi"]);
    const node = new Assistant({ name: "a", llm, description: "You are terse.", toolsPath: false });
    await node.invoke("hello");
    expect(systemPrompt(llm)).toContain("You are terse.");
    expect(node.agent.description).toBe("You are terse.");
  });

  it("AgentNode's toolsManager is its toolRegistry", () => {
    const node = new Assistant({
      name: "a",
      llm: new MockChatModel([]),
      description: "d",
      toolsPath: false,
    });
    expect(node.toolsManager).toBe(node.toolRegistry);
    expect(node.toolRegistry).toBe(node.agent.toolRegistry);
  });

  it("AgentNode's isResetTools empties the registry file, as resetTools does", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "aliases-"));
    try {
      const ping = primaryFunction(
        { name: "ping", description: "d", parameters: z.object({}), returns: "str" },
        () => "pong",
      );
      const options = { llm: new MockChatModel([]), description: "d", cwd };
      await new Assistant({ name: "a", tools: [{ ping }], ...options }).ready;
      await new Assistant({ name: "b", isResetTools: true, ...options }).ready;
      const stored = JSON.parse(await readFile(join(cwd, "templates/tools.json"), "utf8"));
      expect(stored).toEqual({});
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it("CrewAgent's checkpoint option is its checkpointer, and llm is accepted but unused", async () => {
    const saver = new MemorySaver();
    const llm = new MockChatModel([]);
    const assistant = new Assistant({
      name: "assistant",
      llm: new MockChatModel(["Hello."]),
      description: "d",
      toolsPath: false,
    });
    const crew = new CrewAgent({
      llm,
      checkpoint: saver,
      graph: new FlowStateGraph(ChatState),
      flow: [START.to(assistant), assistant.to(END)],
    });
    expect(crew.checkpointer).toBe(saver);
    expect(crew.llm).toBe(llm);
    const state = await crew.invoke("Hi", { threadId: "t" });
    expect(state.answer).toBe("Hello.");
    expect(await saver.getLatest("t")).toBeDefined();
    expect(llm.calls).toHaveLength(0);
  });
});
