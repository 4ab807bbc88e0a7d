import { type AppRun, appToolSettings } from "@framework/cli-kit";
import { Agent } from "@framework/core";
import { configureDeepSearch } from "@framework/tools-deepsearch";
import { chartsDrawn, renderCharts, reportsWritten } from "./finance-outputs.js";
import { financeDescription, financeInstruction, financeSkills } from "./finance-prompt.js";

/**
 * Asks the financial analyst (stock tools, deep search, web search, time) a question and prints
 * its answer, the charts it drew (written under `./charts`, or `FRAMEWORK_CHARTS_DIR`), and the
 * deep-search report when it wrote one.
 */
export async function runFinance(run: AppRun, question: string): Promise<void> {
  // Deep search then uses the app's model (and its progress logger), not a second client.
  configureDeepSearch({ llm: run.llm });
  const agent = await Agent.create({
    description: financeDescription,
    instruction: financeInstruction,
    skills: financeSkills,
    llm: run.llm,
    tools: [
      "@framework/tools-finance",
      "@framework/tools-deepsearch",
      "@framework/tools-websearch",
      "@framework/tools-time",
    ],
    resetTools: true,
    logger: run.progress.logger("finance"),
    ...appToolSettings(import.meta.url),
  });
  const result = await agent.invoke(question, {
    signal: run.signal,
    onEvent: (event) => run.progress.agentEvent("finance", event),
  });
  const sections = [
    `## Answer\n\n${result.content.trim()}`,
    `## Charts\n\n${renderCharts(chartsDrawn(result.toolCalls))}`,
    ...reportsWritten(result.toolCalls).map(
      (report) => `## Deep-search report\n\n${report.trim()}`,
    ),
  ];
  run.print(`${sections.join("\n\n")}\n`);
}
