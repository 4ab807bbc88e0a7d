import { AbortedError, ConfigurationError, registerSecret } from "@framework/core";
import { warnDeprecated } from "@framework/core/internal";
import { toSearchError } from "./to-search-error.js";

/** One page found by a web search. */
export interface WebSearchResult {
  title: string;
  url: string;
  /** The part of the page that answers the query. */
  content: string;
  /** Relevance to the query, 0 to 1. */
  score: number;
}

/** What a web search found. */
export interface WebSearchResponse {
  /** A short answer written by the service; present only when asked for and available. */
  answer?: string;
  /** The pages found, most relevant first. */
  results: WebSearchResult[];
}

/** Settings of one search. */
export interface WebSearchOptions {
  /** How many results to return (the service allows 0 to 20). Defaults to the client's. */
  maxResults?: number;
  /** Ask the service for a short written answer besides the results. */
  includeAnswer?: boolean;
  /** Stops waiting for the answer when aborted; the search then rejects with `AbortedError`. */
  signal?: AbortSignal;
  /** Time limit of this search in milliseconds. Defaults to the client's. */
  timeoutMs?: number;
}

/**
 * Runs one web search. Rejects with `ConfigurationError` (setting `TAVILY_API_KEY`) when no key
 * is configured, `SearchError` when the service fails, and `AbortedError` when `signal` fires.
 * Searches are independent, so any number may run concurrently.
 */
export type WebSearch = (query: string, options?: WebSearchOptions) => Promise<WebSearchResponse>;

/**
 * Options of {@link createTavilySearch} and `createSearchApiTool`. Each one given wins over
 * its environment variable; each one left out is read from the environment at every search.
 */
export interface TavilySearchOptions {
  /** The API key. Defaults to `TAVILY_API_KEY`, read at each search. */
  apiKey?: string;
  /**
   * The service's base URL; searches go to `{baseURL}/search`. Defaults to `TAVILY_API_URL`,
   * else {@link defaultTavilyBaseURL}.
   */
  baseURL?: string;
  /**
   * @deprecated Use `baseURL` (same meaning); `apiBaseURL` still works, warns once per
   * process, and goes away in the next minor version.
   */
  apiBaseURL?: string;
  /** Time limit of each search in milliseconds. Defaults to 30 000. */
  timeoutMs?: number;
  /** Results per search unless a search says otherwise. Defaults to 5, the service's own. */
  maxResults?: number;
}

/** The Tavily API's public base URL. */
export const defaultTavilyBaseURL = "https://api.tavily.com";

/**
 * @deprecated Use {@link defaultTavilyBaseURL} (the same URL); this name goes away in the next
 * minor version.
 */
export const defaultTavilyApiUrl = defaultTavilyBaseURL;

const defaultTimeoutMs = 30_000;
const defaultMaxResults = 5;
// Timers cannot wait longer than a signed 32-bit count of milliseconds.
const maxTimeoutMs = 2_147_483_647;
const operation = "web search";

/**
 * The base URL a program gave, under `baseURL` or its deprecated name `apiBaseURL` (which
 * warns once per process), checked now: a bad value is the program's mistake, told when made.
 *
 * @throws ConfigurationError when it is not a URL, or two different URLs are given.
 */
function givenBaseURL(options: TavilySearchOptions): string | undefined {
  const { baseURL, apiBaseURL } = options;
  if (apiBaseURL !== undefined) {
    if (baseURL !== undefined && baseURL !== apiBaseURL) {
      throw new ConfigurationError({
        setting: "baseURL",
        message:
          "Web search takes baseURL or its deprecated name apiBaseURL, not two different URLs",
      });
    }
    warnDeprecated(
      "FRAMEWORK_TAVILY_API_BASE_URL",
      "@framework/tools-websearch: the apiBaseURL option is deprecated, pass the same URL as baseURL; apiBaseURL goes away in the next minor version",
    );
  }
  const given = baseURL ?? apiBaseURL;
  if (given && !URL.canParse(given)) {
    throw new ConfigurationError({
      setting: "baseURL",
      message: `Web search: baseURL is not a valid URL: "${given}"`,
    });
  }
  return given;
}

function checkTimeoutMs(timeoutMs: number | undefined): void {
  if (
    timeoutMs !== undefined &&
    !(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= maxTimeoutMs)
  ) {
    throw new ConfigurationError({
      setting: "timeoutMs",
      message: `Web search: timeoutMs must be a positive number of milliseconds up to ${maxTimeoutMs}, got ${timeoutMs}`,
    });
  }
}

/**
 * Creates a {@link WebSearch} on the Tavily service through `@tavily/core`. Settings not given
 * here are read from the environment at each search, never at import, so a key added later
 * (or a test's fake server) is picked up.
 *
 * @throws ConfigurationError when `baseURL` is not a URL, `timeoutMs` is not a positive number
 *   of milliseconds, or `baseURL` and its deprecated name `apiBaseURL` name different URLs.
 *
 * @example
 * const search = createTavilySearch({ maxResults: 2 });
 * const { results } = await search("bitcoin ETF inflows");
 */
export function createTavilySearch(options: TavilySearchOptions = {}): WebSearch {
  const givenURL = givenBaseURL(options);
  checkTimeoutMs(options.timeoutMs);
  return async (query, searchOptions = {}) => {
    const apiKey = options.apiKey || process.env.TAVILY_API_KEY?.trim();
    if (!apiKey) {
      throw new ConfigurationError({
        setting: "TAVILY_API_KEY",
        message:
          "TAVILY_API_KEY is not set. Web search needs a Tavily API key: add TAVILY_API_KEY to the environment or the .env file (keys: https://app.tavily.com).",
      });
    }
    registerSecret(apiKey);
    const baseURL = (
      givenURL ||
      process.env.TAVILY_API_URL?.trim() ||
      defaultTavilyBaseURL
    ).replace(/\/+$/, "");
    const timeoutMs = searchOptions.timeoutMs ?? options.timeoutMs ?? defaultTimeoutMs;
    const { signal } = searchOptions;
    AbortedError.throwIfAborted(signal, operation);

    // Imported on the first search, not with the package: @tavily/core (with axios) takes a
    // quarter of a second to load, and many agents register search_api without calling it.
    const { tavily } = await import("@tavily/core");
    const client = tavily({ apiKey, apiBaseURL: baseURL });
    let response: Awaited<ReturnType<typeof client.search>>;
    try {
      response = await untilAborted(
        client.search(query, {
          maxResults: searchOptions.maxResults ?? options.maxResults ?? defaultMaxResults,
          includeAnswer: searchOptions.includeAnswer ?? false,
          // @tavily/core counts in seconds.
          timeout: timeoutMs / 1000,
        }),
        signal,
      );
    } catch (error) {
      if (AbortedError.isInstance(error)) throw error;
      throw toSearchError(error, { timeoutMs, baseURL });
    }

    return {
      ...(response.answer ? { answer: response.answer } : {}),
      results: response.results.map((result) => ({
        title: result.title ?? "",
        url: result.url ?? "",
        content: result.content ?? "",
        score: result.score ?? 0,
      })),
    };
  };
}

/**
 * Searches with a client configured from the environment (`TAVILY_API_KEY`, `TAVILY_API_URL`).
 *
 * @example
 * const { answer } = await tavilySearch("Who won the 2024 Nobel Prize in physics?", {
 *   includeAnswer: true,
 * });
 */
export const tavilySearch: WebSearch = (query, options) => createTavilySearch()(query, options);

// @tavily/core takes no AbortSignal, so an abort can only stop the wait: the request itself
// ends on its own timeout.
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError({ operation, cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
