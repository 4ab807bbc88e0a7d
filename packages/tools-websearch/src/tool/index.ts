export { createSearchApiTool, search_api } from "./search-api.js";
