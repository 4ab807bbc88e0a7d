export {
  DeepSearch,
  type DeepSearchOptions,
  type DeepSearchResponseOptions,
  type DeepSearchRunOptions,
} from "./deep-search.js";
export {
  configureDeepSearch,
  createDeepSearchTool,
  type DeepSearchToolConfig,
  type DeepSearchToolOptions,
  deepsearch_tool,
} from "./deepsearch-tool.js";
export { EmptyOutlineError } from "./error/index.js";
export type {
  ChapterStartEvent,
  ChapterWritingEvent,
  ChapterWrittenEvent,
  CritiqueEvent,
  CritiqueQueriesEvent,
  DeepSearchEvent,
  DeepSearchProgressEvent,
  DeepSearchReporter,
  DoneEvent,
  PlannedEvent,
  SearchEvent,
} from "./events/index.js";
export { formatReport, formatSources } from "./report/index.js";
export { DEFAULT_SEARCH_CONCURRENCY, RESULTS_PER_QUERY } from "./search/index.js";
export {
  AgentState,
  type AgentStateUpdate,
  type DeepSearchLimits,
  defaultDeepSearchLimits,
} from "./state/index.js";
