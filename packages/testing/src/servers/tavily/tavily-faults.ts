import type { FakeResponse } from "../../server/fake-server.js";

// Tavily wraps every error as `{ detail: { error } }`; the texts are the ones Tavily documents
// (help.tavily.com, "Understanding HTTP errors").
const envelope = (status: number, error: string): FakeResponse => ({
  status,
  body: { detail: { error } },
});

/**
 * Error answers of the Tavily API, for `injectFaults`, `setFaultRate` or a `failQueries` hook
 * of {@link startFakeTavilyServer}.
 */
export const tavilyFaults = {
  /** HTTP 401, as for a missing or wrong key. */
  unauthorized: (): FakeResponse => envelope(401, "Unauthorized: missing or invalid API key."),
  /** HTTP 429, too many requests. */
  rateLimited: (): FakeResponse =>
    envelope(
      429,
      "Your request has been blocked due to excessive requests. Please reduce rate of requests.",
    ),
  /** HTTP 432, the plan's usage limit is used up. */
  usageLimitExceeded: (): FakeResponse =>
    envelope(
      432,
      "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com",
    ),
  /** HTTP 500 with Tavily's envelope. */
  serverError: (): FakeResponse => envelope(500, "Internal Server Error"),
};
