import { Agent } from "@framework/core";
import { MemorySaver } from "@framework/graph";
import { MockChatModel } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invokeOnThread } from "./thread-conversation.js";

function agentOn(llm: MockChatModel): Agent {
  return new Agent({ description: "You remember names.", llm, toolsPath: false });
}

const userTexts = (llm: MockChatModel, call: number) =>
  (llm.calls[call]?.messages ?? []).filter((m) => m.role === "user").map((m) => m.content);

describe("invokeOnThread", () => {
  it("continues the thread's conversation, even through a new agent and graph", async () => {
    const checkpointer = new MemorySaver();
    const llm = new MockChatModel(["Hello Ada.", "Your name is Ada.", "I do not know."]);
    const thread = { id: "t", checkpointer };
    await invokeOnThread(agentOn(llm), "My name is Ada.", { thread });
    const second = await invokeOnThread(agentOn(llm), "What is my name?", { thread });
    expect(userTexts(llm, 1)).toEqual(["My name is Ada.", "What is my name?"]);
    expect(second.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    // Another thread of the same database starts afresh.
    await invokeOnThread(agentOn(llm), "Who am I?", { thread: { id: "u", checkpointer } });
    expect(userTexts(llm, 2)).toEqual(["Who am I?"]);
  });

  it("returns the typed output of an output schema", async () => {
    const llm = new MockChatModel(['{"name":"Ada"}']);
    const result = await invokeOnThread(agentOn(llm), "Name?", {
      thread: { id: "t", checkpointer: new MemorySaver() },
      output: z.object({ name: z.string() }),
    });
    expect(result.output).toEqual({ name: "Ada" });
  });

  it("keeps the saved conversation as it was when a turn fails", async () => {
    const checkpointer = new MemorySaver();
    const thread = { id: "t", checkpointer };
    const llm = new MockChatModel(["Hello Ada.", new Error("model down"), "Ada."]);
    await invokeOnThread(agentOn(llm), "My name is Ada.", { thread });
    await expect(invokeOnThread(agentOn(llm), "Lost question", { thread })).rejects.toThrow(
      /model down/,
    );
    await invokeOnThread(agentOn(llm), "What is my name?", { thread });
    expect(userTexts(llm, 2)).toEqual(["My name is Ada.", "What is my name?"]);
  });

  it("saves a turn whose answer is prose and returns its text, without output", async () => {
    const checkpointer = new MemorySaver();
    const thread = { id: "t", checkpointer };
    const llm = new MockChatModel(["Ada, I think.", "It is Ada.", "You are Ada."]);
    const answer = await invokeOnThread(agentOn(llm), "Name?", {
      thread,
      output: z.object({ name: z.string() }),
    });
    expect(answer.output).toBeNull();
    expect(answer.content).toBe("It is Ada.");
    expect(answer.issues).toEqual([{ path: "(output)", message: "The answer is not valid JSON." }]);
    // The next turn continues from the prose answer.
    await invokeOnThread(agentOn(llm), "Sure?", { thread });
    expect(llm.calls[2]?.messages.filter((m) => m.role === "assistant").at(-1)?.content).toBe(
      "It is Ada.",
    );
  });
});
