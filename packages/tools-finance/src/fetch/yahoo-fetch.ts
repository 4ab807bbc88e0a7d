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
  baseUrl: string;
  /** Ends the request: the caller's cancellation or a timeout. */
  signal: AbortSignal;
}

/**
 * A `fetch` for yahoo-finance2 that sends its query-host requests to `baseUrl` and applies
 * `signal`. A failed answer that is not JSON (a 429 "Too Many Requests" page, a proxy's 502)
 * becomes an error naming the status here, because yahoo-finance2 would print the URL to the
 * console and report only the body.
 */
export function createYahooFetch({ baseUrl, signal }: YahooFetchOptions): typeof fetch {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const response = await fetch(redirectYahooUrl(url, baseUrl), { ...init, signal });
    const type = response.headers.get("content-type") ?? "";
    if (response.ok || type.includes("json")) return response;
    const text = (await response.text()).trim().slice(0, 200);
    throw new Error(
      `Yahoo Finance answered HTTP ${response.status}: ${text || response.statusText}`,
    );
  };
}

/**
 * `url` with Yahoo's query origin (query1 or query2) replaced by `baseUrl`; unchanged when
 * `baseUrl` is Yahoo's own default or `url` goes elsewhere.
 */
export function redirectYahooUrl(url: string, baseUrl: string): string {
  if (baseUrl === defaultYahooFinanceUrl) return url;
  const origin = yahooOrigins.find(
    (candidate) => url === candidate || url.startsWith(`${candidate}/`),
  );
  return origin ? baseUrl + url.slice(origin.length) : url;
}
