export {
  createTavilySearch,
  defaultTavilyApiUrl,
  type TavilySearchOptions,
  tavilySearch,
  type WebSearch,
  type WebSearchOptions,
  type WebSearchResponse,
  type WebSearchResult,
} from "./client/tavily-search.js";
export { SearchError, type SearchFailure } from "./error/search-error.js";
export { createSearchApiTool, search_api } from "./tool/search-api.js";
