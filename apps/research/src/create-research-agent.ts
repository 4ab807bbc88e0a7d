import { appToolSettings } from "@framework/cli-kit";
import { Agent, type ChatModel, type Logger, type ToolSource } from "@framework/core";
import { researchDescription, researchInstruction, researchSkills } from "./research-prompt.js";

/** Options of {@link createResearchAgent}. */
export interface ResearchAgentOptions {
  /** More tools beside the paper search, such as an MCP server's tool set (`--mcp`). */
  tools?: readonly ToolSource[];
  /** Where the agent's log lines go. Default: the framework's logger. */
  logger?: Logger;
}

/**
 * The paper-research agent: `paper_research` from `@framework/tools-papers` (plus `tools`),
 * with the research prompt, its tool modules resolved from this app's package and recorded in
 * `templates/tools.json` under the working directory. The command line and `pnpm serve` both
 * build it here.
 */
export function createResearchAgent(
  llm: ChatModel,
  options: ResearchAgentOptions = {},
): Promise<Agent> {
  return Agent.create({
    description: researchDescription,
    instruction: researchInstruction,
    skills: researchSkills,
    llm,
    tools: ["@framework/tools-papers", ...(options.tools ?? [])],
    resetTools: true,
    ...(options.logger ? { logger: options.logger } : {}),
    ...appToolSettings(import.meta.url),
  });
}
