import { AbortedError, primaryFunction } from "@framework/core";
import { z } from "zod";
import { ArxivRequestError } from "./error/arxiv-request-error.js";
import { toPaperInfo } from "./paper-info.js";
import type { PaperResearchToolOptions } from "./paper-research-options.js";
import { formatPaperResearchResult, type PaperResearchResult } from "./paper-research-result.js";
import { checkPaperResearchToolOptions, searchArxiv } from "./search-arxiv.js";

/**
 * Creates a `paper_research` tool with its own arXiv settings (base URL, time limit, `fetch`),
 * so two tools in one process can reach different services without environment variables.
 * Name, arguments, results and failure texts are those of {@link paper_research}, which is
 * this with every setting read from the environment.
 *
 * @throws ConfigurationError when `baseURL` is not a URL or `timeoutMs` is not a positive
 *   number of milliseconds.
 *
 * @example
 * const papers = createPaperResearchTool({ baseURL: "https://arxiv.example.com", timeoutMs: 10_000 });
 * const result = await papers({ topic: "LLM agents", max_results: 3 });
 */
export function createPaperResearchTool(options: PaperResearchToolOptions = {}) {
  checkPaperResearchToolOptions(options);
  const settings = { ...options };
  return primaryFunction(
    {
      name: "paper_research",
      description:
        "Search arXiv for papers on a topic and return their ids, titles, authors, abstracts, " +
        "publication dates and PDF links.\n" +
        "Results come most relevant first. The topic may use arXiv query syntax " +
        "(ti:, au:, abs:, cat:, AND, OR, ANDNOT). If the search fails, the result has an " +
        "`error` text and no papers.",
      parameters: z.object({
        topic: z.string().min(1).describe("What to search for, e.g. 'LLM agents tool use'"),
        max_results: z
          .number()
          .int()
          .min(1)
          .default(5)
          .describe("How many papers to return (arXiv sends at most 100 per search)"),
      }),
      returns: "Dict[str, Any] with paper information",
      toModelOutput: formatPaperResearchResult,
    },
    async ({ topic, max_results }, { signal, logger }) => {
      try {
        const feed = await searchArxiv(topic, signal, settings);
        const papers = feed.entries.slice(0, max_results).map(toPaperInfo);
        const result: PaperResearchResult = {
          topic,
          total_papers: papers.length,
          paper_ids: papers.map((paper) => paper.paper_id),
          papers_info: papers,
        };
        if (feed.totalResults !== undefined) result.total_results = feed.totalResults;
        return result;
      } catch (error) {
        if (AbortedError.isInstance(error)) throw error;
        // Anything else, even a fault of ours, goes back as a result: a tool must not crash
        // the agent's loop.
        const message = ArxivRequestError.isInstance(error)
          ? error.message
          : `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
        logger.warn(`Error searching papers for ${topic}: ${message}`);
        const failed: PaperResearchResult = {
          topic,
          total_papers: 0,
          paper_ids: [],
          papers_info: [],
          error: message,
        };
        return failed;
      }
    },
  );
}

/**
 * Searches arXiv for papers on a topic (`GET {ARXIV_API_URL}/api/query`, relevance order, one
 * page of 100) and returns the first `max_results` with id, title, authors, abstract, date
 * and PDF link. A failed search (arXiv's error feed, HTTP 429 or another error status, a
 * network failure, no answer within `ARXIV_TIMEOUT_MS`, an unreadable body) is returned as a
 * result with `error` set and no papers, and logged as a warning; it is never thrown.
 * Cancelling the call through its context's `signal` rejects with `AbortedError`.
 */
export const paper_research = createPaperResearchTool();
