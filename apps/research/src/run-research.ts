import { type AppRun, appToolSettings } from "@framework/cli-kit";
import { Agent } from "@framework/core";
import { papersFound, renderPapers } from "./papers-found.js";
import { researchDescription, researchInstruction, researchQuery } from "./research-prompt.js";

/** What the command line asks of one research run. */
export interface ResearchRequest {
  topic: string;
  maxResults: number;
}

/**
 * Asks the paper-research agent (`@framework/tools-papers`) about a topic and prints its
 * answer, then the papers its searches returned (ids, titles, links).
 */
export async function runResearch(run: AppRun, request: ResearchRequest): Promise<void> {
  const agent = await Agent.create({
    description: researchDescription,
    instruction: researchInstruction,
    skills: ["Search arXiv by topic", "Summarise papers with their ids and links"],
    llm: run.llm,
    tools: ["@framework/tools-papers"],
    isResetTools: true,
    logger: run.progress.logger("research"),
    ...appToolSettings(import.meta.url),
  });
  const result = await agent.invoke(researchQuery(request.topic, request.maxResults), {
    signal: run.signal,
  });
  run.print(
    `## Answer\n\n${result.content.trim()}\n\n## Papers found\n\n${renderPapers(papersFound(result.toolCalls))}\n`,
  );
}
