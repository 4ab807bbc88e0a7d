import { percent, unstructuredNote } from "@framework/cli-kit";
import type { OutputIssue } from "@framework/core";
import { z } from "zod";
import type { DrawnChart } from "./finance-outputs.js";

/** One stock's figures over the period the answer covers, as `fetch_stock_data` returned them. */
export const StockFigures = z.object({
  symbol: z.string(),
  from: z.string().describe("First date of the prices, YYYY-MM-DD"),
  to: z.string().describe("Last date of the prices, YYYY-MM-DD"),
  currency: z.string(),
  firstClose: z.number(),
  lastClose: z.number(),
  returnPercent: z.number().describe("The period's return, in percent, e.g. 12.5"),
  lowClose: z.number(),
  lowDate: z.string(),
  highClose: z.number(),
  highDate: z.string(),
  trend: z.string().describe("The short-term trend in one sentence, with its evidence"),
});

/** One stock's figures. */
export type StockFigures = z.infer<typeof StockFigures>;

/**
 * The analyst's answer, asked of the model as structured output: a short answer, the figures of
 * each stock it is about, and the news.
 */
export const FinanceReport = z.object({
  summary: z.string().describe("The answer to the question in two or three sentences"),
  stocks: z
    .array(StockFigures)
    .describe("The figures of each stock the answer is about; empty when no prices came back"),
  news: z.string().describe("What recent news says, or that the web search found none"),
});

/** The analyst's typed answer. */
export type FinanceReport = z.infer<typeof FinanceReport>;

/** What `--json` prints: the typed answer, and the charts and reports the run's tools wrote. */
export interface FinanceAnswer {
  /** The typed answer, or `null` when the model's answer did not match it even after the retry. */
  report: FinanceReport | null;
  /** Why the model's answer did not match the report's schema; empty when `report` is typed. */
  reportIssues: OutputIssue[];
  /** The answer as text: the report rendered, or the model's own text when it is `null`. */
  answer: string;
  charts: DrawnChart[];
  /** The `deepsearch_tool` reports, in Markdown. */
  deepSearchReports: string[];
}

function renderStock(stock: StockFigures): string {
  return [
    `${stock.symbol}, ${stock.from} to ${stock.to} (${stock.currency}):`,
    `- Performance: ${percent(stock.returnPercent)}, close ${stock.firstClose.toFixed(2)} -> ${stock.lastClose.toFixed(2)}; lowest close ${stock.lowClose.toFixed(2)} on ${stock.lowDate}, highest ${stock.highClose.toFixed(2)} on ${stock.highDate}.`,
    `- Trend: ${stock.trend}`,
  ].join("\n");
}

/** The report's `## Answer` text: the summary, each stock's figures, the news. */
export function renderFinanceReport(report: FinanceReport): string {
  return [report.summary, ...report.stocks.map(renderStock), `News: ${report.news}`].join("\n\n");
}

/**
 * The `## Answer` section of a printed report: the typed report rendered, or, when the model
 * did not answer with the report's fields, its own text under a line saying so.
 */
export function renderFinanceAnswer(answer: FinanceAnswer): string {
  if (answer.report) return answer.answer;
  return `${unstructuredNote("report", answer.reportIssues)}\n\n${answer.answer || "(the model gave no answer text)"}`;
}
