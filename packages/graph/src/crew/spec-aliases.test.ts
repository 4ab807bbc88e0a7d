import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { primaryFunction } from "@framework/core";
import { createCapturingLogger, MockChatModel } from "@framework/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState, type StateOf } from "../state/state-definition.js";
import { AgentNode } from "./agent-node.js";
import { CrewAgent } from "./crew-agent.js";

// The spec names AgentNode's options `instruction` and `isResetTools`, its registry
// `toolsManager`, and CrewAgent's saver `checkpoint`; the TypeScript names are `description`,
// `resetTools`, `toolRegistry` and `checkpointer`. Both stay, silently: each alias is checked
// here through the public classes, so removing one, or making it warn, fails a test.

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

function chatCrew(
  options: ({ checkpointer: MemorySaver } | { checkpoint: MemorySaver }) & { llm?: MockChatModel },
) {
  const logger = createCapturingLogger();
  const assistant = new Assistant({
    name: "assistant",
    llm: new MockChatModel(["Hello."]),
    description: "d",
    toolsPath: false,
    logger,
  });
  const crew = new CrewAgent({
    ...options,
    graph: new FlowStateGraph(ChatState),
    flow: [START.to(assistant), assistant.to(END)],
    logger,
  });
  return { crew, logger };
}

const warnings = (logger: ReturnType<typeof createCapturingLogger>) =>
  logger.entries.filter((entry) => entry.level === "warn");

describe("the spec's names", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("AgentNode's instruction option becomes its description and its system prompt", async () => {
    const llm = new MockChatModel(["hi"]);
    const logger = createCapturingLogger();
    const emitWarning = vi.spyOn(process, "emitWarning");
    const node = new Assistant({
      name: "a",
      llm,
      instruction: "You are terse.",
      toolsPath: false,
      logger,
    });
    expect(node.description).toBe("You are terse.");
    expect(node.instruction).toBe("You are terse.");
    await node.invoke("hello");
    expect(systemPrompt(llm)).toContain("You are terse.");
    expect(warnings(logger)).toEqual([]);
    expect(emitWarning).not.toHaveBeenCalled();
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

  it("CrewAgent saves to its checkpointer option, and to checkpoint, the spec's name, without a warning", async () => {
    const emitWarning = vi.spyOn(process, "emitWarning");
    for (const name of ["checkpointer", "checkpoint"] as const) {
      const saver = new MemorySaver();
      const { crew, logger } = chatCrew(
        name === "checkpointer" ? { checkpointer: saver } : { checkpoint: saver },
      );
      expect(crew.checkpointer).toBe(saver);
      expect((await crew.invoke("Hi", { threadId: "t" })).answer).toBe("Hello.");
      expect(await saver.getLatest("t")).toBeDefined();
      expect(warnings(logger)).toEqual([]);
    }
    expect(emitWarning).not.toHaveBeenCalled();
  });

  it("CrewAgent accepts the spec's llm, and calls no model with it", async () => {
    const llm = new MockChatModel([]);
    const { crew } = chatCrew({ checkpoint: new MemorySaver(), llm });
    expect(crew.llm).toBe(llm);
    expect((await crew.invoke("Hi", { threadId: "t" })).answer).toBe("Hello.");
    expect(llm.calls).toHaveLength(0);
  });
});
