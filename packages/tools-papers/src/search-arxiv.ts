import { AbortedError, ConfigurationError, describeHttpFailure } from "@framework/core";
import ky from "ky";
import { type ArxivFeed, parseArxivFeed } from "./arxiv-feed.js";
import { ArxivRequestError } from "./error/arxiv-request-error.js";
import type { PaperResearchToolOptions } from "./paper-research-options.js";

const defaultArxivApiUrl = "http://export.arxiv.org";
const defaultArxivTimeoutMs = 30_000;
// Timers cannot wait longer than a signed 32-bit count of milliseconds.
const maxTimeoutMs = 2_147_483_647;
// The spec fixes the page size; the tool keeps the first max_results of the page.
const arxivPageSize = 100;

/** A page of results from arXiv. */
type ArxivResults = Extract<ArxivFeed, { kind: "results" }>;

function configurationError(message: string): ArxivRequestError {
  return new ArxivRequestError({ reason: "configuration", message });
}

function isValidTimeout(value: number): boolean {
  return Number.isFinite(value) && value > 0 && value <= maxTimeoutMs;
}

/**
 * Checks settings a program gave (not the environment's, which are checked at each call and
 * reported in the tool's result): a bad value is the program's mistake, told when it is made.
 *
 * @throws ConfigurationError naming the option.
 */
export function checkPaperResearchToolOptions(settings: PaperResearchToolOptions): void {
  if (settings.baseURL !== undefined && !URL.canParse(settings.baseURL)) {
    throw new ConfigurationError({
      setting: "baseURL",
      message: `paper_research: baseURL is not a valid URL: "${settings.baseURL}"`,
    });
  }
  if (settings.timeoutMs !== undefined && !isValidTimeout(settings.timeoutMs)) {
    throw new ConfigurationError({
      setting: "timeoutMs",
      message: `paper_research: timeoutMs must be a positive number of milliseconds up to ${maxTimeoutMs}, got ${settings.timeoutMs}`,
    });
  }
}

// What is not given is read on every call, not at import, so an app's .env or a test can
// redirect the service.
function readSettings(given: PaperResearchToolOptions): { baseURL: string; timeoutMs: number } {
  const rawUrl = given.baseURL ?? (process.env.ARXIV_API_URL?.trim() || defaultArxivApiUrl);
  if (!URL.canParse(rawUrl)) {
    throw configurationError(`ARXIV_API_URL is not a valid URL: "${rawUrl}"`);
  }
  return {
    baseURL: rawUrl.replace(/\/+$/, ""),
    timeoutMs: given.timeoutMs ?? environmentTimeoutMs(),
  };
}

function environmentTimeoutMs(): number {
  const raw = process.env.ARXIV_TIMEOUT_MS?.trim();
  if (!raw) return defaultArxivTimeoutMs;
  const timeoutMs = Number(raw);
  if (!isValidTimeout(timeoutMs)) {
    throw configurationError(
      `ARXIV_TIMEOUT_MS must be a positive number of milliseconds up to ${maxTimeoutMs}, got "${raw}"`,
    );
  }
  return timeoutMs;
}

function describeFailure(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = "code" in cause && typeof cause.code === "string" ? cause.code : undefined;
    // A refused dual-stack connect is an AggregateError whose message is empty.
    return cause.message || code || cause.name;
  }
  return error instanceof Error ? error.message : String(error);
}

function statusLine(response: Response): string {
  return `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
}

/** A failure status; `body` is said in words unless it is a feed, which says nothing of it. */
function httpStatusError(response: Response, body: string, cause?: unknown): ArxivRequestError {
  return new ArxivRequestError({
    reason: "http-status",
    status: response.status,
    message: `arXiv answered ${describeHttpFailure(response, body)}`,
    cause,
  });
}

function readFeed(response: Response, body: string): ArxivResults {
  if (response.status === 429) {
    const retryAfter = response.headers.get("retry-after");
    throw new ArxivRequestError({
      reason: "rate-limited",
      status: 429,
      message:
        `arXiv is limiting requests (${statusLine(response)}); wait a few seconds before ` +
        `searching again${retryAfter ? ` (Retry-After: ${retryAfter})` : ""}`,
    });
  }
  let feed: ArxivFeed;
  try {
    feed = parseArxivFeed(body);
  } catch (error) {
    if (response.ok) throw error;
    // A failure status with a body that is not arXiv's error feed: a proxy's page or text.
    throw httpStatusError(response, body, error);
  }
  if (feed.kind === "error") {
    throw new ArxivRequestError({
      reason: "rejected",
      status: response.status,
      message: `arXiv rejected the query (${statusLine(response)}): ${feed.message || "no reason given"}`,
    });
  }
  if (!response.ok) throw httpStatusError(response, "");
  return feed;
}

/**
 * Runs one arXiv search: `GET {baseURL}/api/query` with the topic as `search_query`,
 * relevance order, first page of 100. Throws {@link ArxivRequestError} for
 * every failure and {@link AbortedError} when `signal` fires.
 */
export async function searchArxiv(
  topic: string,
  signal: AbortSignal,
  settings: PaperResearchToolOptions = {},
): Promise<ArxivResults> {
  AbortedError.throwIfAborted(signal, "paper_research");
  const { baseURL, timeoutMs } = readSettings(settings);
  // One deadline covers the whole exchange: ky's own timeout stops at the response headers,
  // so a server that stalls while sending the body would otherwise hold the agent forever.
  const deadline = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let body: string;
  try {
    response = await ky.get(`${baseURL}/api/query`, {
      searchParams: {
        search_query: topic,
        id_list: "",
        sortBy: "relevance",
        sortOrder: "descending",
        start: 0,
        max_results: arxivPageSize,
      },
      headers: { accept: "application/atom+xml", "user-agent": "@framework/tools-papers" },
      // No retries: arXiv's terms allow one request every three seconds, so an immediate
      // retry of a 429 or 503 only makes things worse. The failure goes back to the model,
      // which can search again later.
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      signal: AbortSignal.any([signal, deadline]),
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    });
    body = await response.text();
  } catch (error) {
    if (signal.aborted) {
      throw new AbortedError({ operation: "paper_research", cause: signal.reason });
    }
    if (deadline.aborted) {
      throw new ArxivRequestError({
        reason: "timeout",
        message: `arXiv at ${baseURL} did not answer within ${timeoutMs} ms`,
        cause: error,
      });
    }
    throw new ArxivRequestError({
      reason: "network",
      message: `the connection to arXiv at ${baseURL} failed: ${describeFailure(error)}`,
      cause: error,
    });
  }
  return readFeed(response, body);
}
