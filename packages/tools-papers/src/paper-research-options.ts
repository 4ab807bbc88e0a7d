/**
 * Options of `createPaperResearchTool`. Each one given wins over its environment variable;
 * each one left out is read from the environment at every call, never at import.
 */
export interface PaperResearchToolOptions {
  /**
   * The arXiv API's base URL; requests go to `{baseURL}/api/query`. Defaults to
   * `ARXIV_API_URL`, else `http://export.arxiv.org`. A trailing `/` is ignored.
   */
  baseURL?: string;
  /**
   * Time limit of the whole exchange, response body included, in milliseconds. Defaults to
   * `ARXIV_TIMEOUT_MS`, else 30 000.
   */
  timeoutMs?: number;
  /** Replaces the global `fetch`, e.g. to route or record requests. */
  fetch?: typeof globalThis.fetch;
}
