import type { ChatModel } from "@framework/core";
import type { NodeFunction } from "@framework/graph";
import type { WebSearch } from "@framework/tools-websearch";
import type { ChapterPrefetch } from "../search/chapter-prefetch.js";
import type { AgentState, AgentStateUpdate } from "../state/agent-state.js";

/** What the workflow's nodes are built with. */
export interface NodeDependencies {
  llm: ChatModel;
  search: WebSearch;
  /** Searches of one step in flight at once. */
  searchConcurrency: number;
  /** Starts every chapter's searches once the outline is known; absent: each at its draft. */
  prefetch?: ChapterPrefetch;
}

/** A node of the deep-search workflow. */
export type DeepSearchNode = NodeFunction<AgentState, AgentStateUpdate>;
