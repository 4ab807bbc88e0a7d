import { type ChatRequest, findTickers } from "@framework/demo-kit";
import type { ScriptedReplyValue } from "@framework/testing";

// The deep-search workflow's model steps, told apart by how their system prompts open.
const planner = "You are a research planner.";
const writer = "You are a research writer.";
const editor = "You are an editor reviewing";
const critiqueQueries = "You are a research assistant. An editor critiqued";

function limit(text: string, pattern: RegExp, fallback: number): number {
  const value = Number(pattern.exec(text)?.[1]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

function subjectOf(task: string): string {
  return findTickers(task).slice(0, 2).join(" and ") || task.split(/[:.?]/)[0]?.trim() || task;
}

// A sentence ends at . ! or ? before a capital or the end, so "0.4%" stays whole.
function firstSentences(text: string, count: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const sentences = flat.match(/.+?[.!?](?=\s+[A-Z]|$)/g) ?? [flat];
  return sentences
    .slice(0, count)
    .map((sentence) => sentence.trim())
    .join(" ");
}

function outline(task: string, maxChapters: number): string {
  const subject = subjectOf(task);
  const period = /\b(19|20)\d{2}\b/.exec(task)?.[0] ?? "this year";
  const chapters = [
    [
      `Price performance and trend`,
      `${subject} stock performance ${period}`,
      `${subject} share price trend`,
    ],
    [`News, earnings and drivers`, `${subject} latest earnings results`, `${subject} stock news`],
    [`Outlook and risks`, `${subject} analyst outlook`, `${subject} stock risks`],
  ];
  return chapters
    .slice(0, maxChapters)
    .map(([title, ...queries], index) => [`${index + 1}. ${title}`, ...queries].join("\n"))
    .join("\n\n");
}

function chapter(prompt: string, maxParagraphs: number): string {
  const title = /^Chapter to write: (.+)$/m.exec(prompt)?.[1] ?? "this chapter";
  // Each note comes numbered by its source in the report; the chapter cites that number.
  const notes = [...prompt.matchAll(/^\[(\d+)\] (.+)$/gm)].map((match) => ({
    source: match[1] ?? "",
    text: match[2] ?? "",
  }));
  if (notes.length === 0) {
    return `The research notes did not cover "${title}", so its points could not be confirmed here.`;
  }
  const paragraphs = notes.slice(0, maxParagraphs).map((note, index) => {
    const lead = index === 0 ? `On ${title.replace(/^\d+\.\s*/, "").toLowerCase()}: ` : "";
    return `${lead}${firstSentences(note.text, 2)} [${note.source}]`;
  });
  return paragraphs.join("\n\n");
}

function critique(prompt: string): string {
  const subject = subjectOf(/^Task of the report: (.+)$/m.exec(prompt)?.[1] ?? "");
  return `The draft leans on general market commentary. It should give ${subject} figures with dates (closing prices, the period return, the high and low), name the source of each claim, separate company-specific drivers from market-wide moves, and state the main risks explicitly.`;
}

function queries(prompt: string, max: number): string {
  const subject = subjectOf(/^Task of the report: (.+)$/m.exec(prompt)?.[1] ?? "");
  return [
    `${subject} closing price and period return`,
    `${subject} company-specific drivers`,
    `${subject} key risks`,
  ]
    .slice(0, max)
    .map((query, index) => `${index + 1}. "${query}"`)
    .join("\n");
}

/**
 * Answers the model calls of the deep-search workflow that `deepsearch_tool` runs: an outline
 * with search queries for the planner, chapters made from the research notes it was given
 * for the writer, a critique for the editor, and numbered queries for the critique step.
 * `undefined` when the request is none of these.
 */
export function deepSearchAnalyst(request: ChatRequest): ScriptedReplyValue | undefined {
  const { system, user } = request;
  if (system.startsWith(planner)) return outline(user, limit(system, /at most (\d+) chapters/, 3));
  if (system.startsWith(writer)) return chapter(user, limit(system, /at most (\d+) paragraphs/, 3));
  if (system.startsWith(editor)) return critique(user);
  if (system.startsWith(critiqueQueries)) {
    return queries(user, limit(system, /at most (\d+) web-search queries/, 3));
  }
  return undefined;
}
