export { DeepSearch, type DeepSearchOptions, type DeepSearchRunOptions } from "./deep-search.js";
export {
  configureDeepSearch,
  createDeepSearchTool,
  type DeepSearchToolConfig,
  deepsearch_tool,
} from "./deepsearch-tool.js";
export { EmptyOutlineError } from "./error/empty-outline-error.js";
export type {
  ChapterStartEvent,
  ChapterWrittenEvent,
  CritiqueEvent,
  CritiqueQueriesEvent,
  DeepSearchEvent,
  DeepSearchProgressEvent,
  DoneEvent,
  PlannedEvent,
  SearchEvent,
} from "./events/deep-search-event.js";
export { parseCritiqueQueries } from "./parse/critique-queries.js";
export { type ChapterOutline, parseChapterOutline, parseOutline } from "./parse/outline.js";
export { formatReport } from "./report/format-report.js";
export {
  DEFAULT_SEARCH_CONCURRENCY,
  RESULTS_PER_QUERY,
} from "./search/concurrent-search.js";
export { AgentState, type AgentStateUpdate } from "./state/agent-state.js";
export { type DeepSearchLimits, defaultDeepSearchLimits } from "./state/run-input.js";
