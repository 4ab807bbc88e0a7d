import { ChatRequest, callTools } from "@framework/demo-kit";
import type { FakeLLMReply, OpenAIChatRequestBody } from "@framework/testing";

interface ListedPaper {
  id: string;
  title: string;
  authors: string;
  published: string;
  pdf: string;
  summary: string;
}

// One block of paper_research's text for the model (see @framework/tools-papers).
const paperBlock =
  /^\d+\. (.+) \[(\S+)\]\n\s+Authors: (.+)\n\s+Published: (\S+)\n\s+PDF: (\S+)\n\s+Summary: (.+)$/gm;

function firstSentence(text: string): string {
  return /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
}

function firstAuthor(authors: string): string {
  const [first] = authors.split(",");
  return authors.includes(",") ? `${first?.trim()} et al.` : authors.trim();
}

/**
 * The research app's scripted model for the offline demo and the tests: it searches arXiv with
 * the topic and count the query names, then answers from the papers the search returned, with
 * their real ids, titles, authors, dates and links.
 */
export const researchAnalyst: FakeLLMReply = (body: OpenAIChatRequestBody) => {
  const request = new ChatRequest(body);
  const topic = /papers on "(.*?)"/.exec(request.user)?.[1] ?? request.user;
  const [search] = request.resultsOf("paper_research");
  if (!search) {
    const count = Number(/the (\d+) most relevant/.exec(request.user)?.[1] ?? 5);
    return callTools({ name: "paper_research", arguments: { topic, max_results: count } });
  }
  const papers: ListedPaper[] = [...search.content.matchAll(paperBlock)].map((match) => ({
    title: match[1] ?? "",
    id: match[2] ?? "",
    authors: match[3] ?? "",
    published: match[4] ?? "",
    pdf: match[5] ?? "",
    summary: match[6] ?? "",
  }));
  if (papers.length === 0) {
    return `I found no arXiv papers on "${topic}". The search said: ${search.content.split("\n")[0]} Try a broader or differently worded topic.`;
  }
  const [closest] = papers;
  return [
    `Here are the ${papers.length} most relevant arXiv papers I found on "${topic}":`,
    "",
    ...papers.map((paper, index) =>
      [
        `${index + 1}. ${paper.title} (arXiv:${paper.id}, ${paper.published}; ${firstAuthor(paper.authors)})`,
        `   ${firstSentence(paper.summary)}`,
        `   PDF: ${paper.pdf}`,
      ].join("\n"),
    ),
    "",
    `Where to start: "${closest?.title}" (arXiv:${closest?.id}) is the closest match to the topic.`,
  ].join("\n");
};
