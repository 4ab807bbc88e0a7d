import type { ChatMessage } from "@framework/core";

/**
 * The planner's request: an outline of at most `maxChapters` chapters, each a numbered title
 * line followed by its web-search queries, in the exact shape `parseOutline` reads.
 */
export function plannerMessages(task: string, maxChapters: number): ChatMessage[] {
  const system = `You are a research planner. You plan a well-researched report that answers the user's request.

Write the outline of the report in at most ${maxChapters} chapters. For each chapter, give its title and the web-search queries that will find the facts the chapter needs.

Follow this format exactly, because a program reads it:
- One block per chapter, blocks separated by one blank line.
- The first line of a block is the chapter number, a dot, a space and the title, for example "1. Market overview". No bold, no "#", no other numbering style.
- Each further line of the block is one web-search query: a short, specific search phrase with names, tickers and periods where they matter. Write 1 to 3 queries per chapter, with no bullets, numbers or quotes.
- Chapters build on each other and do not overlap; the last one draws the conclusions.
- Write nothing else: no introduction, no closing remarks.

The shape of the answer:
1. <chapter title>
<search query>
<search query>

2. <chapter title>
<search query>`;
  return [
    { role: "system", content: system },
    { role: "user", content: task },
  ];
}
