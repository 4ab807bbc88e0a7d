import type { PaperInfo } from "./paper-info.js";

/**
 * What `paper_research` returns, on success and on failure alike, so the model and callers
 * can always read the same keys.
 */
export interface PaperResearchResult {
  /** The topic searched for, as given. */
  topic: string;
  /** How many papers are in `papers_info` (at most `max_results`). */
  total_papers: number;
  /** The `paper_id` of each paper, in relevance order. */
  paper_ids: string[];
  /** The papers, most relevant first. */
  papers_info: PaperInfo[];
  /**
   * How many papers arXiv matched in all (its `opensearch:totalResults`), which can exceed
   * `total_papers`. Present on success when the feed states it.
   */
  total_results?: number;
  /** Present only when the search failed: what went wrong, in words. */
  error?: string;
}

const maxAuthorsShown = 6;
const maxSummaryChars = 1_000;

function authorsLine(authors: string[]): string {
  if (authors.length <= maxAuthorsShown) return authors.join(", ");
  return `${authors.slice(0, maxAuthorsShown).join(", ")} et al. (${authors.length} authors)`;
}

function shortened(summary: string): string {
  if (summary.length <= maxSummaryChars) return summary;
  const cut = summary.slice(0, maxSummaryChars + 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${cut.slice(0, lastSpace > 0 ? lastSpace : maxSummaryChars)}…`;
}

/**
 * Renders a result as compact text for the model: one block per paper instead of JSON, long
 * author lists and abstracts shortened so a large `max_results` stays readable.
 */
export function formatPaperResearchResult(result: PaperResearchResult): string {
  if (result.error !== undefined) {
    return `Paper search for "${result.topic}" failed: ${result.error}`;
  }
  if (result.total_papers === 0) {
    return `No papers found on arXiv for "${result.topic}".`;
  }
  const matched =
    result.total_results === undefined ? "" : ` (arXiv matched ${result.total_results})`;
  const blocks = result.papers_info.map((paper, index) =>
    [
      `${index + 1}. ${paper.title} [${paper.paper_id}]`,
      `   Authors: ${authorsLine(paper.authors)}`,
      `   Published: ${paper.published}`,
      `   PDF: ${paper.pdf_url}`,
      `   Summary: ${shortened(paper.summary)}`,
    ].join("\n"),
  );
  return [
    `Found ${result.total_papers} ${result.total_papers === 1 ? "paper" : "papers"} on arXiv ` +
      `for "${result.topic}"${matched}:`,
    ...blocks,
  ].join("\n\n");
}
