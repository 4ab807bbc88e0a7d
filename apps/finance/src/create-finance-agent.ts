import { appToolSettings } from "@framework/cli-kit";
import { Agent, type ChatModel, type Logger } from "@framework/core";
import { configureDeepSearch, type DeepSearchReporter } from "@framework/tools-deepsearch";
import { financeDescription, financeInstruction, financeSkills } from "./finance-prompt.js";

// The analyst's tool modules: prices and charts, deep search, web search, the time.
const financeTools = [
  "@framework/tools-finance",
  "@framework/tools-deepsearch",
  "@framework/tools-websearch",
  "@framework/tools-time",
] as const;

/** Options of {@link createFinanceAgent}. */
export interface FinanceAgentOptions {
  /** Where the agent's log lines go. Default: the framework's logger. */
  logger?: Logger;
  /**
   * Receives each step of a deep-search report as it is written (outline, searches, chapters,
   * critiques), e.g. for a progress display.
   */
  onDeepSearchEvent?: DeepSearchReporter;
}

/**
 * The financial analyst: stock prices and charts, deep-search reports, web search and the
 * time, with the finance prompt, its tool modules resolved from this app's package and
 * recorded in `templates/tools.json` under the working directory. Deep search is set to write
 * its reports with `llm` too, rather than a second client from the environment; that setting
 * is the process's (`configureDeepSearch`), so the last analyst built decides it. The command
 * line and `pnpm serve` both build it here.
 */
export function createFinanceAgent(
  llm: ChatModel,
  options: FinanceAgentOptions = {},
): Promise<Agent> {
  configureDeepSearch({
    llm,
    ...(options.onDeepSearchEvent ? { onEvent: options.onDeepSearchEvent } : {}),
  });
  return Agent.create({
    description: financeDescription,
    instruction: financeInstruction,
    skills: financeSkills,
    llm,
    tools: financeTools,
    resetTools: true,
    ...(options.logger ? { logger: options.logger } : {}),
    ...appToolSettings(import.meta.url),
  });
}
