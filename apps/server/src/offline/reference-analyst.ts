import { cryptoInstruction, marketInstruction, recommenderInstruction } from "@framework/app-crew";
import { crewAnalyst } from "@framework/app-crew/offline";
import { financeAnalyst } from "@framework/app-finance/offline";
import { researchDescription } from "@framework/app-research";
import { researchAnalyst } from "@framework/app-research/offline";
import { ChatRequest } from "@framework/demo-kit";
import type { FakeLLMReply, OpenAIChatRequestBody } from "@framework/testing";

/** Which app's scripted model answers an agent, by words of the agent's system prompt. */
const analystsBySystemPrompt: ReadonlyArray<readonly [string, FakeLLMReply]> = [
  [researchDescription, researchAnalyst],
  [marketInstruction, crewAnalyst],
  [cryptoInstruction, crewAnalyst],
  [recommenderInstruction, crewAnalyst],
];

/**
 * The scripted model of the offline server: one fake LLM answers all three agents, each
 * request by the scripted model of the app whose agent sent it (recognised by its system
 * prompt). The finance app's answers the rest: its own agent and deep search's calls, which
 * have system prompts of their own.
 */
export const referenceAnalyst: FakeLLMReply = (body: OpenAIChatRequestBody, callIndex: number) => {
  const system = new ChatRequest(body).system;
  const analyst =
    analystsBySystemPrompt.find(([words]) => system.includes(words))?.[1] ?? financeAnalyst;
  return typeof analyst === "function" ? analyst(body, callIndex) : analyst;
};
