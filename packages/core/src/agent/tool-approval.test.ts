import { createCapturingLogger, MockChatModel, mockToolCall } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallDeclinedError } from "../error/tool-call-declined-error.js";
import type { ToolMessage } from "../model/chat-model.js";
import { temporaryDirectory } from "../registry/test-temporary-directory.js";
import { primaryFunction } from "../tool/primary-function.js";
import { Agent, type AgentOptions } from "./agent.js";
import type { ToolApprovalRequest } from "./tool-approval.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

const transfers: number[] = [];
const transfer = primaryFunction(
  {
    name: "transfer",
    description: "Move money.",
    parameters: z.object({ amount: z.number(), note: z.string().default("") }),
    returns: "str",
    needsApproval: ({ amount }) => amount > 100,
  },
  ({ amount }) => {
    transfers.push(amount);
    return `moved ${amount}`;
  },
);
const wipe = primaryFunction(
  {
    name: "wipe",
    description: "Delete everything.",
    parameters: z.object({}),
    returns: "str",
    needsApproval: true,
  },
  () => "wiped",
);

function run(llm: MockChatModel, options: Partial<AgentOptions> = {}) {
  return new Agent({
    description: "You are a bank clerk.",
    llm,
    tools: [transfer, wipe],
    toolsPath: false,
    cwd: dir,
    logger: createCapturingLogger(),
    ...options,
  });
}

const toolResult = (llm: MockChatModel, index: number) =>
  llm.calls[index]?.messages.at(-1) as ToolMessage | undefined;

beforeEach(() => {
  transfers.length = 0;
});

describe("tool approval", () => {
  it("asks before a tool that needs approval and runs it when approved", async () => {
    const asked: ToolApprovalRequest[] = [];
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("transfer", { amount: 500 }, "call_1")] },
      "Done.",
    ]);
    const result = await run(llm, {
      approveToolCall: (call) => {
        asked.push(call);
        return true;
      },
    }).invoke("Send 500");

    expect(asked).toEqual([
      { toolCallId: "call_1", toolName: "transfer", arguments: { amount: 500, note: "" } },
    ]);
    expect(transfers).toEqual([500]);
    expect(result.toolCalls[0]?.ok).toBe(true);
  });

  it("tells the model the user declined, without running the tool", async () => {
    const llm = new MockChatModel([{ toolCalls: [mockToolCall("wipe", {})] }, "Not wiped."]);
    const logger = createCapturingLogger();
    const result = await run(llm, { approveToolCall: async () => false, logger }).invoke("Wipe it");
    // The approval worked as meant: logged for the curious (info), no warning for operators.
    expect(logger.entries).toContainEqual({
      level: "info",
      message: expect.stringMatching(/^Tool call wipe not run: The user declined/),
    });
    expect(logger.entries.filter((entry) => entry.level === "warn")).toEqual([]);

    expect(result.content).toBe("Not wiped.");
    const call = result.toolCalls[0];
    expect(call?.ok).toBe(false);
    expect(ToolCallDeclinedError.isInstance(call?.error)).toBe(true);
    expect(toolResult(llm, 1)?.content).toContain("The user declined to run tool wipe");
  });

  it("asks only when needsApproval says so for the arguments", async () => {
    let asked = 0;
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("transfer", { amount: 5 })] },
      "Sent.",
    ]);
    await run(llm, { approveToolCall: () => ++asked > 0 }).invoke("Send 5");
    expect(asked).toBe(0);
    expect(transfers).toEqual([5]);
  });

  it("declines when nobody can be asked", async () => {
    const llm = new MockChatModel([{ toolCalls: [mockToolCall("wipe", {})] }, "Skipped."]);
    const result = await run(llm).invoke("Wipe it");
    const error = result.toolCalls[0]?.error as ToolCallDeclinedError;
    expect(error.asked).toBe(false);
    expect(toolResult(llm, 1)?.content).toContain("needs the user's approval");
  });

  it("lets the invoke option override the agent's callback", async () => {
    const llm = new MockChatModel([{ toolCalls: [mockToolCall("wipe", {})] }, "Wiped."]);
    const result = await run(llm, { approveToolCall: () => false }).invoke("Wipe", {
      approveToolCall: () => true,
    });
    expect(result.toolCalls[0]?.result).toBe("wiped");
  });

  it("does not ask about a call with invalid arguments: it fails as before", async () => {
    let asked = 0;
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("transfer", { amount: "lots" })] },
      "Oops.",
    ]);
    const result = await run(llm, { approveToolCall: () => ++asked > 0 }).invoke("Send");
    expect(asked).toBe(0);
    expect(result.toolCalls[0]?.error?.name).toBe("ToolArgumentsError");
  });
});
