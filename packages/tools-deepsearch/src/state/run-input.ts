import type { AgentStateUpdate } from "./agent-state.js";

/** The size limits of one deep-search run. */
export interface DeepSearchLimits {
  /** Chapters the plan may hold; the planner's extra chapters are dropped. */
  maxChapters: number;
  /** Paragraphs the writer may use per chapter. */
  maxParagraphsPerChapter: number;
  /** Search queries derived from each critique. */
  maxCriticalQueries: number;
  /** Drafts written per chapter: 1 writes each chapter once, 2 revises it once. */
  maxRevisions: number;
}

/** The spec's defaults of `streaming_response` and `deepsearch_tool`. */
export const defaultDeepSearchLimits: Readonly<DeepSearchLimits> = Object.freeze({
  maxChapters: 4,
  maxParagraphsPerChapter: 5,
  maxCriticalQueries: 3,
  maxRevisions: 1,
});

/**
 * The graph input of a run. It sets every key, because a thread's new run starts on top of
 * its saved state: without the reset, a second report on the same thread would inherit the
 * first one's sections and chapters.
 */
export function runInput(task: string, limits: DeepSearchLimits): AgentStateUpdate {
  return {
    task,
    plan: [],
    draft: "",
    critique: "",
    adjustment: [],
    sources: [],
    sections: [],
    chapters: [],
    revision_number: 1,
    max_revisions: limits.maxRevisions,
    max_chapters: limits.maxChapters,
    max_paragraphs_per_chapter: limits.maxParagraphsPerChapter,
    max_critical_queries: limits.maxCriticalQueries,
    number_of_chapters: 0,
    current_chapter_order: 0,
  };
}

/**
 * The step limit of a run with these limits. A run takes at most one `generate` per chapter
 * and draft, a `reflect` and a `research_critique` after every `generate` but the last, and
 * the planner: 3 × chapters × drafts − 1 node runs. The limit is one above that, so the
 * graph's step limit never cuts a valid run short.
 */
export function maxSteps(limits: DeepSearchLimits): number {
  return 3 * limits.maxChapters * limits.maxRevisions;
}
