import { AbortedError, ConfigurationError, type Logger } from "@framework/core";
import { SearchError, type WebSearch } from "@framework/tools-websearch";

/** Searches of one step that run at the same time unless `searchConcurrency` says otherwise. */
export const DEFAULT_SEARCH_CONCURRENCY = 4;

/** Results kept per query, as the spec sets for deep search. */
export const RESULTS_PER_QUERY = 2;

/** How one query's search ended. */
export type QuerySearchOutcome =
  | { query: string; status: "ok"; contents: string[]; urls: string[] }
  | { query: string; status: "failed"; error: string };

/** Options of {@link searchConcurrently}. */
export interface ConcurrentSearchOptions {
  search: WebSearch;
  /** Searches in flight at once; 1 runs them one after the other, in query order. */
  concurrency: number;
  signal?: AbortSignal;
  /** Receives a warning for each query left out. */
  logger: Logger;
  /** Called as each search ends, in the order they end. */
  onOutcome?: (outcome: QuerySearchOutcome) => void;
}

/**
 * True for a search failure that would fail every other search too, or that the caller
 * asked for, so the run must stop rather than write a report without research: a missing key
 * (`ConfigurationError`), a rejected key (HTTP 401) and cancellation.
 */
export function isFatalSearchError(error: unknown): boolean {
  return (
    AbortedError.isInstance(error) ||
    ConfigurationError.isInstance(error) ||
    (SearchError.isInstance(error) && error.reason === "unauthorized")
  );
}

/**
 * Searches every query (at most {@link RESULTS_PER_QUERY} results each) with at most
 * `concurrency` searches in flight, and returns the outcomes in query order whatever order
 * they end in. A failed search (rate limit, server error, network) is logged as a warning and
 * comes back as a `failed` outcome; a fatal one ({@link isFatalSearchError}) rejects, and no
 * further search starts.
 */
export async function searchConcurrently(
  queries: readonly string[],
  options: ConcurrentSearchOptions,
): Promise<QuerySearchOutcome[]> {
  const outcomes: QuerySearchOutcome[] = new Array(queries.length);
  let next = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    while (!stopped && next < queries.length) {
      const index = next++;
      try {
        outcomes[index] = await searchOne(queries[index]!, options);
      } catch (error) {
        stopped = true;
        throw error;
      }
      options.onOutcome?.(outcomes[index]!);
    }
  };
  const workers = Math.min(options.concurrency, queries.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}

async function searchOne(
  query: string,
  { search, signal, logger }: ConcurrentSearchOptions,
): Promise<QuerySearchOutcome> {
  try {
    const { results } = await search(query, { maxResults: RESULTS_PER_QUERY, signal });
    // An injected search function may ignore maxResults.
    const kept = results.slice(0, RESULTS_PER_QUERY);
    // `urls[i]` is where `contents[i]` came from: the report cites it as a source.
    const contents = kept.map((result) => result.content);
    return { query, status: "ok", contents, urls: kept.map((result) => result.url) };
  } catch (error) {
    if (isFatalSearchError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    logger.warn(`Search failed, leaving out "${query}": ${message}`);
    return { query, status: "failed", error: message };
  }
}
