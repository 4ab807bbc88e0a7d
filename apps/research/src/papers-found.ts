import type { AgentToolCall } from "@framework/core";
import type { PaperInfo, PaperResearchResult } from "@framework/tools-papers";

function isPaperResearchResult(value: unknown): value is PaperResearchResult {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { papers_info?: unknown }).papers_info)
  );
}

/**
 * Every paper the agent's `paper_research` calls returned, without repeats, in the order
 * found: the answer's evidence, independent of how the model phrased it.
 */
export function papersFound(toolCalls: readonly AgentToolCall[]): PaperInfo[] {
  const papers = new Map<string, PaperInfo>();
  for (const call of toolCalls) {
    if (call.toolName !== "paper_research" || !call.ok || !isPaperResearchResult(call.result)) {
      continue;
    }
    for (const paper of call.result.papers_info) papers.set(paper.paper_id, paper);
  }
  return [...papers.values()];
}

/** The papers as a numbered list: id, title, date and PDF link. */
export function renderPapers(papers: readonly PaperInfo[]): string {
  if (papers.length === 0) return "No papers were returned by the search.";
  return papers
    .map(
      (paper, index) =>
        `${index + 1}. ${paper.title}\n   arXiv:${paper.paper_id} (${paper.published}) ${paper.pdf_url}`,
    )
    .join("\n");
}
