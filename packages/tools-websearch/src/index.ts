export {
  createTavilySearch,
  defaultTavilyApiUrl,
  defaultTavilyBaseURL,
  type TavilySearchOptions,
  tavilySearch,
  type WebSearch,
  type WebSearchOptions,
  type WebSearchResponse,
  type WebSearchResult,
} from "./client/index.js";
export { SearchError, type SearchFailure } from "./error/index.js";
export { createSearchApiTool, search_api } from "./tool/index.js";
