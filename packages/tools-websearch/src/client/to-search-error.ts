import { describeErrorBody, redactSecrets } from "@framework/core";
import { SearchError, type SearchFailure } from "../error/search-error.js";

/** What the caller knew about the failed request, for a message a person can act on. */
export interface SearchRequestContext {
  /** The time limit the request had, in milliseconds. */
  timeoutMs: number;
  /** The base URL the request went to. */
  baseURL: string;
}

// @tavily/core turns every failure into a plain Error and drops the HTTP status whenever the
// body carries Tavily's `{ detail: { error } }` envelope, so status and kind are recovered
// from the message texts it produces (see its `handleRequestError` and `_search`).
const timedOutPattern = /^Request timed out after /;
const statusPattern = /^(\d{3}) Error: ([\s\S]*)$/;
const scriptErrorPattern = /^(TypeError|SyntaxError|RangeError)\b/;
const unexpectedPattern =
  /^An unexpected error occurred while making the request\. Error: ([\s\S]*)$/;

// Tavily's documented error texts (help.tavily.com, "Understanding HTTP errors"), used to
// recover the status of an enveloped error.
const knownDetails: ReadonlyArray<readonly [RegExp, number]> = [
  [/unauthorized|invalid api key|missing api key/i, 401],
  [/excessive requests|rate limit|too many requests/i, 429],
  [/plan's set usage limit/i, 432],
  [/pay-as-you-go limit/i, 433],
  [/forbidden/i, 403],
  [/internal server error/i, 500],
];

function failureFor(status: number): SearchFailure {
  if (status === 401) return "unauthorized";
  if (status === 429) return "rate_limited";
  if (status === 432 || status === 433) return "quota_exceeded";
  if (status >= 500) return "server_error";
  if (status >= 400) return "bad_request";
  return "api_error";
}

const summaries: Record<SearchFailure, string> = {
  unauthorized: "Tavily rejected the API key",
  rate_limited: "Tavily rate limit reached",
  quota_exceeded: "Tavily usage limit exceeded",
  bad_request: "Tavily rejected the request",
  server_error: "Tavily server error",
  timeout: "Tavily search timed out",
  network: "Could not reach Tavily",
  invalid_response: "Tavily answered with an unexpected response",
  api_error: "Tavily search failed",
};

function httpError(status: number, detail: string, cause: unknown): SearchError {
  const reason = failureFor(status);
  return new SearchError({
    reason,
    statusCode: status,
    message: `${summaries[reason]} (HTTP ${status}): ${detail}`,
    cause,
  });
}

/**
 * The cause a {@link SearchError} keeps: a copy of what `@tavily/core` threw with secrets
 * redacted, because its message repeats Tavily's, and Tavily may echo the key back.
 */
function redactedCause(error: unknown): Error {
  const copy = new Error(redactSecrets(error instanceof Error ? error.message : String(error)));
  if (error instanceof Error) {
    copy.name = error.name;
    copy.stack = redactSecrets(error.stack ?? "");
  }
  return copy;
}

/**
 * Turns whatever `@tavily/core`'s `search` threw into a {@link SearchError} with a reason, the
 * HTTP status when it can be known, and a message and cause free of secrets.
 */
export function toSearchError(thrown: unknown, context: SearchRequestContext): SearchError {
  const text = thrown instanceof Error ? thrown.message : String(thrown);
  const error = redactedCause(thrown);

  if (timedOutPattern.test(text)) {
    return new SearchError({
      reason: "timeout",
      message: `${summaries.timeout} after ${context.timeoutMs} ms`,
      cause: error,
    });
  }

  // Outside its envelope @tavily/core prints the body as JSON: a gateway's `{ message }`, a
  // validation error's `{ detail: [...] }`, a proxy's page as a JSON string.
  const withStatus = statusPattern.exec(text);
  if (withStatus) {
    const status = Number(withStatus[1]);
    return httpError(status, describeErrorBody(withStatus[2] ?? "") ?? "(no body)", error);
  }

  const unexpected = unexpectedPattern.exec(text);
  if (unexpected) {
    const inner = unexpected[1] ?? "";
    // A script error means the answer arrived but could not be read as a search response;
    // anything else is axios failing to get an answer at all.
    const reason: SearchFailure = scriptErrorPattern.test(inner) ? "invalid_response" : "network";
    const message =
      reason === "network"
        ? `${summaries.network} at ${context.baseURL}: ${inner.replace(/^(Axios)?Error: /, "")}`
        : `${summaries.invalid_response}: ${inner}`;
    return new SearchError({ reason, message, cause: error });
  }

  const known = knownDetails.find(([pattern]) => pattern.test(text));
  if (known) return httpError(known[1], text, error);
  return new SearchError({
    reason: "api_error",
    message: `${summaries.api_error}: ${text}`,
    cause: error,
  });
}
