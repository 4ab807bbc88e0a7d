import type { ChatMessage } from "@framework/core";

/**
 * The request for search queries that address a critique: at most `maxQueries`, as numbered
 * lines with the query in double quotes, the shape `parseCritiqueQueries` reads.
 */
export function critiqueQueriesMessages(
  task: string,
  critique: string,
  maxQueries: number,
): ChatMessage[] {
  const system = `You are a research assistant. An editor critiqued a chapter of a report; you find the facts the revision needs.

Write at most ${maxQueries} web-search queries that would find the missing facts, figures and sources the critique asks for. Make each query short and specific.

Reply with a numbered list and nothing else, one query per line in double quotes:
1. "<search query>"
2. "<search query>"`;
  return [
    { role: "system", content: system },
    { role: "user", content: `Task of the report: ${task}\n\nCritique:\n${critique}` },
  ];
}
