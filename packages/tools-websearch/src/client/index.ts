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
} from "./tavily-search.js";
