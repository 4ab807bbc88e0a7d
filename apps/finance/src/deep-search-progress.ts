import type { DeepSearchProgressEvent } from "@framework/tools-deepsearch";

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

function draft(event: { chapter: number; title: string; revision: number }): string {
  const revision = event.revision > 1 ? `, revision ${event.revision - 1}` : "";
  return `chapter ${event.chapter} "${event.title}"${revision}`;
}

/**
 * One line of progress for a deep-search step: the outline, each chapter's searches, its
 * writing, each critique and revision. Read from the typed event, never from log text.
 *
 * @example
 * deepSearchStep({ type: "critique-queries", queries: ["a", "b"] });
 * // "revising: searching 2 queries from the critique"
 */
export function deepSearchStep(event: DeepSearchProgressEvent): string {
  switch (event.type) {
    case "planned":
      return `outline of ${plural(event.titles.length, "chapter")}: ${event.titles.join("; ")}`;
    case "chapter-start":
      return `${draft(event)} of ${event.chapterCount}: searching ${plural(event.queries.length, "query", "queries")}`;
    case "search":
      return event.status === "ok"
        ? `searched "${event.query}": ${plural(event.results, "result")}`
        : `search "${event.query}" failed: ${event.error ?? "no reason given"}`;
    case "chapter-writing":
      return `writing ${draft(event)} from ${plural(event.notes, "note")}`;
    case "chapter-written":
      return `wrote ${draft(event)}`;
    case "critique":
      return "critiquing the draft";
    case "critique-queries":
      return `revising: searching ${plural(event.queries.length, "query", "queries")} from the critique`;
  }
}
