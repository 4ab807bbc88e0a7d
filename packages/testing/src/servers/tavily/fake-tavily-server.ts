import { randomUUID } from "node:crypto";
import { fakeTavilyApiKey } from "../../secrets/test-secrets.js";
import {
  type FakeResponse,
  type FakeServer,
  type StartFakeServerOptions,
  startFakeServer,
} from "../../server/fake-server.js";
import { cannedAnswer, cannedResults, type FakeTavilyResult } from "./tavily-corpus.js";
import { tavilyFaults } from "./tavily-faults.js";

export { fakeTavilyApiKey };

/** Options of {@link startFakeTavilyServer}. */
export interface StartFakeTavilyServerOptions extends StartFakeServerOptions {
  /** The only key accepted as `Authorization: Bearer <key>`; defaults to {@link fakeTavilyApiKey}. */
  apiKey?: string;
  /**
   * Called with each search's query after the key was accepted; a response returned here is
   * sent instead of the search result, so a test can make exactly one of several queries fail.
   */
  failQueries?: (query: string) => FakeResponse | undefined;
  /** Replaces the canned answer; `null` means the service wrote none. */
  answer?: (query: string) => string | null;
  /** Replaces the canned results (still cut to `max_results`). */
  results?: (query: string) => FakeTavilyResult[];
}

/** A running fake Tavily API. */
export interface FakeTavilyServer extends FakeServer {
  /** The key it accepts. */
  readonly apiKey: string;
}

// Tavily's own default when a request names no max_results.
const defaultMaxResults = 5;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Starts a fake of the Tavily search API (`POST /search`) on 127.0.0.1, answering the request
 * `@tavily/core` sends (key as `Authorization: Bearer <key>`, snake_case body) with the real
 * response shape: `{ query, follow_up_questions, answer, images, results, response_time,
 * request_id }`. Results are canned pages chosen by the query's keywords (crypto, AI,
 * markets, or general), cut to `max_results`; `answer` is filled only when `include_answer`
 * asks for it. A wrong key gets Tavily's 401; see {@link tavilyFaults} for other errors.
 *
 * @example
 * const tavily = await startFakeTavilyServer({ failQueries: (q) => q.includes("ETH") ? tavilyFaults.serverError() : undefined });
 * process.env.TAVILY_API_URL = tavily.url;
 * process.env.TAVILY_API_KEY = tavily.apiKey;
 */
export async function startFakeTavilyServer(
  options: StartFakeTavilyServerOptions = {},
): Promise<FakeTavilyServer> {
  const apiKey = options.apiKey ?? fakeTavilyApiKey;
  const server = await startFakeServer((request) => {
    if (request.method !== "POST" || request.path !== "/search") {
      return { status: 404, body: { detail: "Not Found" } };
    }
    if (request.headers.authorization !== `Bearer ${apiKey}`) return tavilyFaults.unauthorized();
    const body = request.json;
    if (!isRecord(body) || typeof body.query !== "string" || !body.query.trim()) {
      return {
        status: 400,
        body: { detail: { error: "Invalid request: query must be a non-empty string." } },
      };
    }
    const query = body.query;
    const failure = options.failQueries?.(query);
    if (failure) return failure;

    const maxResults = typeof body.max_results === "number" ? body.max_results : defaultMaxResults;
    const wantsAnswer = body.include_answer === true || typeof body.include_answer === "string";
    const answer = options.answer ? options.answer(query) : cannedAnswer(query);
    const results = (options.results ?? cannedResults)(query);
    return {
      body: {
        query,
        follow_up_questions: null,
        answer: wantsAnswer ? answer : null,
        images: [],
        results: results.slice(0, Math.max(0, maxResults)),
        response_time: 0.87,
        request_id: randomUUID(),
      },
    };
  }, options);
  return Object.assign(server, { apiKey });
}
