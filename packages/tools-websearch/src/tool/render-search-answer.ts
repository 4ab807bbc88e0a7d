import type { WebSearchResponse } from "../client/tavily-search.js";

/** How many results stand in for a missing answer; more would drown the model in text. */
const fallbackResultCount = 3;

/**
 * The text `search_api` returns: the service's answer, or when it wrote none, the top results
 * with their titles and addresses so the model can still answer and cite.
 */
export function renderSearchAnswer(response: WebSearchResponse): string {
  if (response.answer?.trim()) return response.answer;
  const top = response.results.slice(0, fallbackResultCount);
  if (top.length === 0) return "No web results were found for this query.";
  const listed = top.map(
    (result, index) => `${index + 1}. ${result.title}\n${result.url}\n${result.content}`,
  );
  return ["No direct answer was found. Top web results:", ...listed].join("\n\n");
}
