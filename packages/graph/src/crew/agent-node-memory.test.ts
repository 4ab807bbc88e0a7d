import { OutputValidationError } from "@framework/core";
import { createCapturingLogger, MockChatModel } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { defineState, type StateOf } from "../state/state-definition.js";
import { agentConversations } from "./agent-conversations.js";
import { AgentNode } from "./agent-node.js";

const State = defineState({
  question: z.string(),
  answer: z.string().optional(),
  conversations: agentConversations(),
});
type Desk = StateOf<typeof State>;
const Verdict = z.object({ verdict: z.string() });

/** Asks for a typed verdict; a prose answer is kept as the answer, as the apps degrade. */
class Judge extends AgentNode<Desk> {
  async exec(state: Desk) {
    try {
      return {
        answer: (await this.invoke(state.question ?? "", { output: Verdict })).output.verdict,
      };
    } catch (error) {
      if (OutputValidationError.isInstance(error)) return { answer: error.text };
      throw error;
    }
  }
}

function desk(llm: MockChatModel) {
  const judge = new Judge({
    name: "judge",
    llm,
    description: "You judge.",
    toolsPath: false,
    memory: true,
    logger: createCapturingLogger(),
  });
  return new FlowStateGraph(State)
    .addNode(judge)
    .addEdge(START, "judge")
    .addEdge("judge", END)
    .compile({ checkpointer: new MemorySaver() });
}

describe("an agent node keeping its conversation", () => {
  it("keeps a turn whose answer did not fit the schema, so the next turn sees it", async () => {
    const llm = new MockChatModel(["It depends.", "Still prose.", '{"verdict":"yes"}']);
    const app = desk(llm);
    const config = { configurable: { thread_id: "t" } };
    const first = await app.invoke({ question: "Is it fine?" }, config);
    expect(first.answer).toBe("Still prose.");
    expect(first.conversations.judge?.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    await app.invoke({ question: "And now?" }, config);
    const sent = llm.calls.at(-1)!.messages.map((message) => message.content);
    expect(sent).toContain("Is it fine?");
    expect(sent).toContain("Still prose.");
  });
});
