import { defineState, type StateOf, type UpdateOf } from "@framework/graph";
import { z } from "zod";

const text = () => z.string().default("");
const texts = () => z.array(z.string()).default(() => []);
const count = (min: number, fallback: number) => z.number().int().min(min).default(fallback);

/**
 * The deep-search workflow's shared state, with the spec's keys and defaults: `revision_number`
 * starts at 1, `max_chapters`, `max_paragraphs_per_chapter` and `max_critical_queries` default
 * to 5. Keys the spec gives no default start empty (or at 0), and `max_revisions` at 1 (the
 * spec's limit). Every key keeps the last value written: nodes return whole lists.
 */
export const AgentState = defineState({
  /** The user's request the report answers. */
  task: text(),
  /** Chapter outlines: a `"<n>. <title>"` line, then one search query per line. */
  plan: texts(),
  /** The text of the chapter written last. */
  draft: text(),
  /** The editor's critique of `draft`. */
  critique: text(),
  /** Contents of the searches made for the critique, each `[n] ` and its source's number. */
  adjustment: texts(),
  /** The URLs of every search result given to the writer, each once; `[n]` cites the n-th. */
  sources: texts(),
  /** Chapter titles and search queries, in plan order, each once. */
  sections: texts(),
  /** One `"<title> \n <text>"` entry per chapter; a revision replaces its chapter's entry. */
  chapters: texts(),
  /** Which draft of the current chapter is written next, from 1. */
  revision_number: count(1, 1),
  /** Drafts written per chapter. */
  max_revisions: count(1, 1),
  max_chapters: count(1, 5),
  max_paragraphs_per_chapter: count(1, 5),
  max_critical_queries: count(1, 5),
  /** How many chapters the plan holds. */
  number_of_chapters: count(0, 0),
  /** 0-based position in `plan` of the chapter being written. */
  current_chapter_order: count(0, 0),
});

/** The deep-search state's values, as nodes read them. */
export type AgentState = StateOf<typeof AgentState>;

/** What a deep-search node may return. */
export type AgentStateUpdate = UpdateOf<typeof AgentState>;
