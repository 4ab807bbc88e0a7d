export { DEFAULT_SEARCH_CONCURRENCY, RESULTS_PER_QUERY } from "./concurrent-search.js";
