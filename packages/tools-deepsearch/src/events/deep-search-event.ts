import type { GraphConfig } from "@framework/graph";
import type { QuerySearchOutcome } from "../search/concurrent-search.js";
import type { AgentState } from "../state/agent-state.js";

/** The planner's outline was parsed. */
export interface PlannedEvent {
  type: "planned";
  /** The kept chapter outlines, title line first. */
  plan: string[];
  /** The chapter titles, in order. */
  titles: string[];
}

/** `generate` began a draft of a chapter. */
export interface ChapterStartEvent {
  type: "chapter-start";
  /** 1-based position of the chapter in the plan. */
  chapter: number;
  /** How many chapters the plan holds. */
  chapterCount: number;
  title: string;
  /** Which draft of the chapter this is, from 1. */
  revision: number;
  /** The chapter's search queries, searched next. */
  queries: string[];
}

/** One web search of a step ended. */
export interface SearchEvent {
  type: "search";
  /** `chapter`: a query of the outline (in `generate`); `critique`: one derived from the critique. */
  stage: "chapter" | "critique";
  query: string;
  /** `failed` searches are left out of the step; the run goes on. */
  status: "ok" | "failed";
  /** Result contents kept (at most 2); 0 when failed. */
  results: number;
  /** Why the search failed. */
  error?: string;
}

/** `generate` has the chapter's research and asks the model to write the draft. */
export interface ChapterWritingEvent {
  type: "chapter-writing";
  chapter: number;
  title: string;
  revision: number;
  /** Search results the writer was given. */
  notes: number;
}

/** `generate` finished a draft. */
export interface ChapterWrittenEvent {
  type: "chapter-written";
  chapter: number;
  title: string;
  revision: number;
  /** The chapter text, without its title. */
  text: string;
}

/** `reflect` critiqued the draft. */
export interface CritiqueEvent {
  type: "critique";
  critique: string;
}

/** `research_critique` turned the critique into search queries, searched next. */
export interface CritiqueQueriesEvent {
  type: "critique-queries";
  queries: string[];
}

/** The {@link SearchEvent} of a search's outcome. */
export function searchEvent(stage: SearchEvent["stage"], outcome: QuerySearchOutcome): SearchEvent {
  return outcome.status === "ok"
    ? {
        type: "search",
        stage,
        query: outcome.query,
        status: "ok",
        results: outcome.contents.length,
      }
    : {
        type: "search",
        stage,
        query: outcome.query,
        status: "failed",
        results: 0,
        error: outcome.error,
      };
}

/** The run ended; always the last event of a successful run. */
export interface DoneEvent {
  type: "done";
  /** The report, exactly as `streamingResponse` returns it. */
  report: string;
  /** The final state of the thread. */
  state: AgentState;
}

/** What the workflow's nodes report while they run. */
export type DeepSearchProgressEvent =
  | PlannedEvent
  | ChapterStartEvent
  | SearchEvent
  | ChapterWritingEvent
  | ChapterWrittenEvent
  | CritiqueEvent
  | CritiqueQueriesEvent;

/** What `DeepSearch.stream` yields, in the order things happen. */
export type DeepSearchEvent = DeepSearchProgressEvent | DoneEvent;

/** Receives a run's progress events. */
export type DeepSearchReporter = (event: DeepSearchProgressEvent) => void;

// Nodes are built once per DeepSearch, so a run's reporter travels in the run's config, as
// callbacks do in other graph libraries. The config is never saved in a checkpoint.
const reporterKey = "deepsearch_reporter";

/** The graph config `configurable` entry that hands a run's reporter to its nodes. */
export function reporterEntry(reporter: DeepSearchReporter): Record<string, DeepSearchReporter> {
  return { [reporterKey]: reporter };
}

/**
 * The reporter the run `config` belongs to was started with, or `undefined`: unique to one
 * run, so it also identifies the run.
 */
export function runReporter(config: GraphConfig): DeepSearchReporter | undefined {
  const reporter = config.configurable?.[reporterKey];
  return typeof reporter === "function" ? (reporter as DeepSearchReporter) : undefined;
}

/** The reporter of the run `config` belongs to; one that drops events when there is none. */
export function reporterOf(config: GraphConfig): DeepSearchReporter {
  const reporter = config.configurable?.[reporterKey];
  return typeof reporter === "function" ? (reporter as DeepSearchReporter) : () => {};
}
