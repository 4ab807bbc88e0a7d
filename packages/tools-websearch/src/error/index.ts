export { SearchError, type SearchFailure } from "./search-error.js";
