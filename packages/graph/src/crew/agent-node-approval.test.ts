import { primaryFunction } from "@framework/core";
import { createCapturingLogger, MockChatModel, mockToolCall } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { resume } from "../run/interrupt.js";
import { defineState, type StateOf } from "../state/state-definition.js";
import { AgentNode, type AgentNodeOptions } from "./agent-node.js";

const State = defineState({ question: z.string(), answer: z.string().optional() });
type Bank = StateOf<typeof State>;

const sent: number[] = [];
const pay = primaryFunction(
  {
    name: "pay",
    description: "Pay an amount.",
    parameters: z.object({ amount: z.number() }),
    returns: "str",
    needsApproval: true,
  },
  ({ amount }) => {
    sent.push(amount);
    return `paid ${amount}`;
  },
);

class Clerk extends AgentNode<Bank> {
  async exec(state: Bank) {
    return { answer: (await this.invoke(state.question ?? "")).content };
  }
}

function bank(
  llm: MockChatModel,
  options: Omit<Partial<AgentNodeOptions>, "description" | "instruction"> = {},
) {
  const clerk = new Clerk({
    name: "clerk",
    llm,
    description: "You pay bills.",
    tools: [pay],
    toolsPath: false,
    logger: createCapturingLogger(),
    ...options,
  });
  return new FlowStateGraph(State)
    .addNode(clerk)
    .addEdge(START, "clerk")
    .addEdge("clerk", END)
    .compile({ checkpointer: new MemorySaver() });
}

const config = { configurable: { thread_id: "bill" } };
// The node runs again on resume, so its model is asked again from the start.
const payReply = { toolCalls: [mockToolCall("pay", { amount: 40 }, "call_pay")] };

describe("tool approval in an agent node", () => {
  it("becomes a graph interrupt carrying the call; resume(true) runs the tool", async () => {
    sent.length = 0;
    const llm = new MockChatModel([payReply, payReply, "Paid 40."]);
    const app = bank(llm);

    await app.invoke({ question: "Pay the bill" }, config);
    const paused = await app.getState(config);
    expect(paused.status).toBe("interrupted");
    expect(paused.interrupts).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        node: "clerk",
        value: {
          type: "tool-approval",
          call: { toolCallId: "call_pay", toolName: "pay", arguments: { amount: 40 } },
        },
      },
    ]);
    expect(sent).toEqual([]);

    const final = await app.invoke(resume(true), config);
    expect(final.answer).toBe("Paid 40.");
    expect(sent).toEqual([40]);
  });

  it("resume(false) tells the model the user declined", async () => {
    sent.length = 0;
    const llm = new MockChatModel([payReply, payReply, "I did not pay."]);
    const app = bank(llm);
    await app.invoke({ question: "Pay the bill" }, config);
    const final = await app.invoke(resume(false), config);

    expect(final.answer).toBe("I did not pay.");
    expect(sent).toEqual([]);
    expect(JSON.stringify(llm.calls[2]?.messages.at(-1))).toContain("The user declined");
  });

  it("uses the node's own approveToolCall instead of interrupting", async () => {
    sent.length = 0;
    const llm = new MockChatModel([payReply, "Paid."]);
    const app = bank(llm, { approveToolCall: () => true });
    await app.invoke({ question: "Pay the bill" }, config);
    expect((await app.getState(config)).status).toBe("done");
    expect(sent).toEqual([40]);
  });
});

describe("structured output in an agent node", () => {
  it("returns the typed output through AgentNode.invoke", async () => {
    const llm = new MockChatModel(['{"action":"hold"}']);
    const node = new Clerk({ name: "clerk", llm, description: "Advise.", toolsPath: false });
    const result = await node.invoke("Advise", { output: z.object({ action: z.string() }) });
    expect(result.output.action).toBe("hold");
  });
});
