import { type AppRun, invokeOnThread, unstructuredNote, withAppThread } from "@framework/cli-kit";
import { createFinanceAgent } from "./create-finance-agent.js";
import { deepSearchStep } from "./deep-search-progress.js";
import { chartsDrawn, renderCharts, reportsWritten } from "./finance-outputs.js";
import {
  type FinanceAnswer,
  FinanceReport,
  renderFinanceAnswer,
  renderFinanceReport,
} from "./finance-report.js";

/** What the command line asks of one finance run. */
export interface FinanceRequest {
  question: string;
  /** Print the typed answer as JSON (a {@link FinanceAnswer}) instead of the report. */
  json?: boolean;
  /** The conversation thread to continue (`--thread`); a new thread when absent. */
  threadId?: string;
  /** The checkpoint database (`--db`); see `checkpointDbPath` for the default. */
  db?: string;
}

/**
 * Asks the financial analyst (stock tools, deep search, web search, time) a question, as the
 * next turn of the conversation on a thread of the app's checkpoint database, for a typed
 * {@link FinanceReport}. Prints it with the charts the run drew (written under `./charts`, or
 * `FRAMEWORK_CHARTS_DIR`) and the deep-search report when it wrote one; or, with `json`, all
 * of that as one JSON object. A model that answers in prose, even after the retry, does not
 * fail the run: its text is the answer, said to be unstructured, and `report` is `null`.
 */
export async function runFinance(run: AppRun, request: FinanceRequest): Promise<void> {
  // Deep search shows each of its steps (on a terminal, or with --verbose) while it works for
  // a minute.
  const agent = await createFinanceAgent(run.llm, {
    logger: run.progress.logger("finance"),
    onDeepSearchEvent: (event) => run.progress.step("deep-search", deepSearchStep(event)),
  });
  const result = await withAppThread(run, { app: "finance", ...request }, (thread) =>
    invokeOnThread(agent, request.question, {
      thread,
      output: FinanceReport,
      signal: run.signal,
      onEvent: (event) => {
        run.progress.agentEvent("finance", event);
        if (event.type === "tool-result" && event.toolName === "deepsearch_tool") {
          run.progress.endSteps("deep-search");
        }
      },
    }),
  );
  if (result.output === null) {
    run.progress.logger("finance").warn(unstructuredNote("report", result.issues));
  }
  const reportIssues = result.issues ?? [];
  const answer: FinanceAnswer = {
    report: result.output,
    reportIssues,
    answer: result.output ? renderFinanceReport(result.output) : result.content.trim(),
    charts: chartsDrawn(result.toolCalls),
    deepSearchReports: reportsWritten(result.toolCalls),
  };
  if (request.json) {
    run.print(JSON.stringify(answer, null, 2));
    return;
  }
  const sections = [
    `## Answer\n\n${renderFinanceAnswer(answer)}`,
    `## Charts\n\n${renderCharts(answer.charts)}`,
    ...answer.deepSearchReports.map((report) => `## Deep-search report\n\n${report.trim()}`),
  ];
  run.print(`${sections.join("\n\n")}\n`);
}
