import { describeHttpFailure } from "@framework/core";
import { classifyYahooAnswer, type YahooAnswerKind, YahooEmptyAnswer } from "./yahoo-answer.js";

/** Yahoo Finance's query host, and the default of `YAHOO_FINANCE_URL`. */
export const defaultYahooFinanceUrl = "https://query2.finance.yahoo.com";

const yahooOrigins = ["https://query1.finance.yahoo.com", "https://query2.finance.yahoo.com"];

/** `YAHOO_FINANCE_URL`, read now (never at import), without a trailing slash. */
export function yahooFinanceUrl(): string {
  const configured = process.env.YAHOO_FINANCE_URL?.trim();
  return (configured || defaultYahooFinanceUrl).replace(/\/+$/, "");
}

/** Options of {@link createYahooFetch}. */
export interface YahooFetchOptions {
  /** Where Yahoo's query hosts are redirected; the default host means no rewrite. */
  baseURL: string;
  /** Ends the request: the caller's cancellation or a timeout. */
  signal: AbortSignal;
  /** Sends the request; the global `fetch` when absent. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A `fetch` for yahoo-finance2 that sends its query-host requests to `baseURL` and applies
 * `signal`. It reads each answer first: an empty one (see {@link classifyYahooAnswer}) throws
 * {@link YahooEmptyAnswer}; a failed one that is not Yahoo's chart envelope (a 429 "Too Many
 * Requests" page, a proxy's 502, a gateway's JSON error) becomes an error naming the status
 * and what the body says, because yahoo-finance2 would print the URL to the console and
 * report only the body.
 */
export function createYahooFetch({
  baseURL,
  signal,
  fetch: send = fetch,
}: YahooFetchOptions): typeof fetch {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const response = await send(redirectYahooUrl(url, baseURL), { ...init, signal });
    const text = await response.text();
    let kind: YahooAnswerKind = "other";
    try {
      kind = classifyYahooAnswer(JSON.parse(text));
    } catch {
      // Not JSON: a page from Yahoo's edge or a proxy.
    }
    if (kind === "empty") throw new YahooEmptyAnswer();
    if (!response.ok && kind === "other") {
      throw new Error(`Yahoo Finance answered ${describeHttpFailure(response, text)}`);
    }
    const { status, statusText, headers } = response;
    return new Response(text, { status, statusText, headers });
  };
}

/**
 * `url` with Yahoo's query origin (query1 or query2) replaced by `baseURL`; unchanged when
 * `baseURL` is Yahoo's own default or `url` goes elsewhere.
 */
export function redirectYahooUrl(url: string, baseURL: string): string {
  if (baseURL === defaultYahooFinanceUrl) return url;
  const origin = yahooOrigins.find(
    (candidate) => url === candidate || url.startsWith(`${candidate}/`),
  );
  return origin ? baseURL + url.slice(origin.length) : url;
}
