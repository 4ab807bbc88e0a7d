import {
  type FakeResponse,
  type FakeServer,
  type StartFakeServerOptions,
  startFakeServer,
} from "../../server/fake-server.js";
import {
  type ArxivFeedForm,
  type ArxivFeedQuery,
  renderArxivErrorFeed,
  renderArxivFeed,
} from "./arxiv-feed.js";
import { type ArxivSamplePaper, arxivSamplePapers } from "./arxiv-sample-papers.js";
import { type ArxivSampleSearch, searchArxivSamples } from "./search-arxiv-samples.js";

/** Options of {@link startFakeArxivServer}. */
export interface StartFakeArxivServerOptions extends StartFakeServerOptions {
  /** The papers it searches. Defaults to {@link arxivSamplePapers}. */
  papers?: readonly ArxivSamplePaper[];
  /** Which feed layout it answers with. Defaults to `"legacy"`. */
  feedForm?: ArxivFeedForm;
  /**
   * A `search_query` containing this text (or matching this pattern) is answered with arXiv's
   * error feed and HTTP 400, as a malformed query is.
   */
  rejectQuery?: string | RegExp;
}

const atomType = "application/atom+xml; charset=UTF-8";
const newStyleId = /^\d{4}\.\d{4,5}(?:v\d+)?$/;
const oldStyleId = /^[a-z-]+(?:\.[A-Z]{2})?\/\d{7}(?:v\d+)?$/;
const sortByValues: readonly ArxivSampleSearch["sortBy"][] = [
  "relevance",
  "lastUpdatedDate",
  "submittedDate",
];
const sortOrderValues: readonly ArxivSampleSearch["sortOrder"][] = ["ascending", "descending"];

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

function integerProblem(name: string, value: string): string | undefined {
  if (/^\d+$/.test(value)) return undefined;
  return /^-\d+$/.test(value) ? `${name} must be non-negative` : `${name} must be an integer`;
}

function balanceProblem(searchQuery: string): string | undefined {
  let depth = 0;
  for (const char of searchQuery) {
    if (char === "(") depth += 1;
    if (char === ")") depth -= 1;
    if (depth < 0) break;
  }
  if (depth !== 0) return "malformed query: unbalanced parentheses";
  if ((searchQuery.match(/"/g) ?? []).length % 2 === 1) return "malformed query: unbalanced quotes";
  return undefined;
}

/**
 * Starts a fake of arXiv's query API (`GET /api/query`) on 127.0.0.1. It answers with
 * real-shaped Atom feeds built from {@link arxivSamplePapers} (or `options.papers`): matches
 * of `search_query` ranked loosely by relevance, `id_list` honoured, paged by `start` and
 * `max_results` (arXiv's default page is 10), `opensearch:totalResults` counting every match.
 * A query matching nothing gives an empty feed with a total of 0. arXiv's error feed with
 * HTTP 400 answers a non-integer or negative `start`/`max_results`, an unknown `sortBy` or
 * `sortOrder`, an id in `id_list` of the wrong format, an empty query (no `search_query` and
 * no `id_list`), unbalanced parentheses or quotes, and any query matched by
 * `options.rejectQuery`. Rate limits and outages come from the base server's `injectFaults`
 * and `setFaultRate`, e.g. `server.injectFaults({ status: 429 })`.
 */
export async function startFakeArxivServer(
  options: StartFakeArxivServerOptions = {},
): Promise<FakeServer> {
  const papers = options.papers ?? arxivSamplePapers;
  const form = options.feedForm ?? "legacy";

  const rejected = (searchQuery: string): boolean => {
    const { rejectQuery } = options;
    if (rejectQuery === undefined) return false;
    // `search` ignores a global pattern's lastIndex, so every request is judged alike.
    return typeof rejectQuery === "string"
      ? searchQuery.includes(rejectQuery)
      : searchQuery.search(rejectQuery) !== -1;
  };

  return startFakeServer((request): FakeResponse => {
    if (request.path !== "/api/query") {
      return {
        status: 404,
        headers: { "content-type": "text/html; charset=utf-8" },
        body: "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>",
      };
    }
    if (request.method !== "GET") {
      return { status: 405, headers: { allow: "GET" }, body: "Method Not Allowed" };
    }
    const query: ArxivFeedQuery = {
      search_query: request.query.search_query ?? "",
      id_list: request.query.id_list ?? "",
      start: request.query.start ?? "0",
      max_results: request.query.max_results ?? "10",
    };
    const errorFeed = (message: string): FakeResponse => ({
      status: 400,
      headers: { "content-type": atomType },
      body: renderArxivErrorFeed({ form, query, message }),
    });
    const sortBy = request.query.sortBy ?? "relevance";
    const sortOrder = request.query.sortOrder ?? "descending";
    const ids = query.id_list
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
    const badId = ids.find((id) => !newStyleId.test(id) && !oldStyleId.test(id));
    const problem =
      integerProblem("start", query.start) ??
      integerProblem("max_results", query.max_results) ??
      (badId === undefined ? undefined : `incorrect id format for ${badId}`) ??
      (query.search_query.trim() === "" && ids.length === 0
        ? "search_query and id_list are both empty"
        : undefined) ??
      balanceProblem(query.search_query) ??
      (rejected(query.search_query) ? `malformed query: ${query.search_query}` : undefined);
    if (problem !== undefined) return errorFeed(problem);
    if (!isOneOf(sortByValues, sortBy)) {
      return errorFeed(`sortBy must be one of ${sortByValues.join(", ")}`);
    }
    if (!isOneOf(sortOrderValues, sortOrder)) {
      return errorFeed(`sortOrder must be one of ${sortOrderValues.join(", ")}`);
    }
    const start = Number(query.start);
    const maxResults = Number(query.max_results);
    const matches = searchArxivSamples(papers, {
      searchQuery: query.search_query,
      ids,
      sortBy,
      sortOrder,
    });
    return {
      status: 200,
      headers: { "content-type": atomType },
      body: renderArxivFeed({
        form,
        query,
        papers: matches.slice(start, start + maxResults),
        totalResults: matches.length,
        startIndex: start,
        itemsPerPage: maxResults,
      }),
    };
  }, options);
}
