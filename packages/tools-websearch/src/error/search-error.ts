import { FrameworkError } from "@framework/core";

const name = "SearchError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** Why a web search failed. */
export type SearchFailure =
  /** The service rejected the API key (HTTP 401). */
  | "unauthorized"
  /** Too many requests in a short time (HTTP 429). */
  | "rate_limited"
  /** The plan's or the pay-as-you-go usage limit is used up (HTTP 432 / 433). */
  | "quota_exceeded"
  /** The service rejected the request itself (HTTP 400, 403, 404, 422). */
  | "bad_request"
  /** The service failed (HTTP 5xx). */
  | "server_error"
  /** No answer within the time limit. */
  | "timeout"
  /** The service could not be reached (refused connection, DNS, reset). */
  | "network"
  /** The service answered with something that is not a search response. */
  | "invalid_response"
  /** The service reported an error this client does not recognise. */
  | "api_error";

const retryableFailures: ReadonlySet<SearchFailure> = new Set([
  "rate_limited",
  "server_error",
  "timeout",
  "network",
]);

/**
 * A web search failed upstream. `reason` says how, `statusCode` carries the HTTP status when
 * it is known, and `retryable` tells whether the same request may succeed later. The message
 * never contains an API key.
 */
export class SearchError extends FrameworkError {
  private readonly [symbol] = true;

  /** The kind of failure, for programmatic handling. */
  declare readonly reason: SearchFailure;
  /** The HTTP status of the failed request, when known. */
  declare readonly statusCode: number | undefined;
  /** True when repeating the same request later may succeed. */
  declare readonly retryable: boolean;

  constructor({
    reason,
    message,
    statusCode,
    cause,
  }: {
    reason: SearchFailure;
    message: string;
    statusCode?: number;
    cause?: unknown;
  }) {
    super({
      name,
      message,
      cause,
      fields: { reason, statusCode, retryable: retryableFailures.has(reason) },
    });
  }

  static override isInstance(error: unknown): error is SearchError {
    return FrameworkError.hasMarker(error, marker);
  }
}
