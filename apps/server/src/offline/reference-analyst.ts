import { cryptoInstruction, marketInstruction, recommenderInstruction } from "@framework/app-crew";
import { crewAnalyst } from "@framework/app-crew/offline";
import { financeAnalyst } from "@framework/app-finance/offline";
import { researchDescription } from "@framework/app-research";
import { researchAnalyst } from "@framework/app-research/offline";
import { ChatRequest } from "@framework/demo-kit";
import type { FakeLLMReply, OpenAIChatRequestBody, ScriptedReplyValue } from "@framework/testing";

/** Which app's scripted model answers an agent, by words of the agent's system prompt. */
const analystsBySystemPrompt: ReadonlyArray<readonly [string, FakeLLMReply]> = [
  [researchDescription, researchAnalyst],
  [marketInstruction, crewAnalyst],
  [cryptoInstruction, crewAnalyst],
  [recommenderInstruction, crewAnalyst],
];

/**
 * The researcher answers as a reasoning model does (DeepSeek's `reasoning_content`), so the
 * offline server shows what a client gets of one: the thinking streamed apart from the
 * answer (the chat stream's `reasoning` part, the studio's "Reasoning" fold).
 */
async function withReasoning(
  reply: ScriptedReplyValue | Promise<ScriptedReplyValue>,
): Promise<ScriptedReplyValue> {
  const answer = await reply;
  if (typeof answer !== "string") return answer;
  return {
    content: answer,
    reasoning:
      "The search came back with its papers, ordered by relevance. I will list each with its " +
      "arXiv id, date and first author, and point to the closest match first.",
  };
}

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
  const reply = typeof analyst === "function" ? analyst(body, callIndex) : analyst;
  return analyst === researchAnalyst ? withReasoning(reply) : reply;
};
