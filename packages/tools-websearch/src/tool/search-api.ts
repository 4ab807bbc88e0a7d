import { AbortedError, FrameworkError, primaryFunction, redactSecrets } from "@framework/core";
import { z } from "zod";
import { createTavilySearch, type TavilySearchOptions } from "../client/tavily-search.js";
import { SearchError } from "../error/search-error.js";
import { queryText } from "./query-text.js";
import { renderSearchAnswer } from "./render-search-answer.js";

const parameters = z.object({
  query: z
    .union([z.string(), z.record(z.string(), z.string())])
    .describe(
      "The question to search for: plain text, or an object whose entries are sent as `key: value` lines",
    ),
});

/**
 * Creates a `search_api` tool with its own client settings (time limit, results per search,
 * key or base URL). The exported {@link search_api} is this with every setting taken from the
 * environment.
 */
export function createSearchApiTool(options: TavilySearchOptions = {}) {
  const search = createTavilySearch(options);
  return primaryFunction(
    {
      name: "search_api",
      description:
        "Search for an answer from a query string.\n" +
        "Asks a web-search service and returns its short answer, or the top pages found " +
        "(title, address, excerpt) when it has none. Use it for current events, prices, " +
        "news and facts that may have changed recently.",
      parameters,
      returns: "The answer to the query from a web-search service",
    },
    async ({ query }, context): Promise<string> => {
      const text = queryText(query);
      if (!text.trim()) return "Web search needs a non-empty query.";
      try {
        const response = await search(text, { includeAnswer: true, signal: context.signal });
        return renderSearchAnswer(response);
      } catch (error) {
        const failure = describeFailure(error);
        context.logger.warn(`search_api failed: ${failure}`);
        return failure;
      }
    },
  );
}

// The model reads this text, so it says what went wrong and whether trying again can help.
function describeFailure(error: unknown): string {
  if (AbortedError.isInstance(error)) return "Web search was cancelled.";
  if (SearchError.isInstance(error) && error.retryable) {
    return `Web search failed (temporary, try again later): ${error.message}`;
  }
  if (FrameworkError.isInstance(error)) return `Web search failed: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return `Web search failed: ${redactSecrets(message)}`;
}

/**
 * Answers a query with the Tavily web-search service (`TAVILY_API_KEY`, optional
 * `TAVILY_API_URL`). `query` is a string or a record of strings (sent as `key: value` lines).
 * Returns the service's answer, else its top results; every failure, including a missing key,
 * comes back as a text saying what went wrong, never as a thrown error.
 */
export const search_api = createSearchApiTool();
