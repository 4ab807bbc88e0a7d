import { describeHttpFailure, registerSecret } from "@framework/core";
import ky from "ky";
import { CoinDeskError } from "../error/coindesk-error.js";

/** The CoinDesk data API's public base URL. */
const defaultCoinDeskApiUrl = "https://data-api.coindesk.com";

/** What to ask the index tick endpoint for. */
export interface LatestTickRequest {
  /** The index family, e.g. `cadli`. */
  market: string;
  /** Instruments such as `BTC-USD`. */
  instruments: readonly string[];
  /** Ends the request when aborted. */
  signal: AbortSignal;
  /** Time limit for the whole exchange, body included, in milliseconds. */
  timeoutMs: number;
  /** The API's base URL; `COINDESK_API_URL` read now when absent. */
  baseURL?: string;
  /** The API key; `COINDESK_API_KEY` read now when absent. */
  apiKey?: string;
  /** Replaces the global `fetch`. */
  fetch?: typeof globalThis.fetch;
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}

/**
 * `GET {baseURL}/index/cc/v1/latest/tick` with `market`, `instruments` and
 * `apply_mapping=true`, and resolves to the parsed JSON body. The base URL and the optional
 * key (sent as `Authorization: Apikey <key>`) not given in `request` are read from
 * `COINDESK_API_URL` and `COINDESK_API_KEY` at each call. Every failure rejects with a
 * {@link CoinDeskError}, carrying the API's own `Err.message` when the answer had one, or what
 * another error body says (see `describeErrorBody`).
 */
export async function fetchLatestTick(request: LatestTickRequest): Promise<unknown> {
  const baseURL = (
    request.baseURL ??
    (process.env.COINDESK_API_URL?.trim() || defaultCoinDeskApiUrl)
  ).replace(/\/+$/, "");
  const apiKey = request.apiKey ?? process.env.COINDESK_API_KEY?.trim();
  registerSecret(apiKey);
  const headers: Record<string, string> = { "Content-type": "application/json; charset=UTF-8" };
  if (apiKey) headers.Authorization = `Apikey ${apiKey}`;

  // One signal for connecting and reading the body alike: ky's own timeout stops at the headers.
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const stopped = (error: unknown, otherwise: string): CoinDeskError => {
    if (request.signal.aborted) {
      return new CoinDeskError({ message: "the request was cancelled", cause: error });
    }
    if (deadline.aborted) {
      return new CoinDeskError({
        message: `no answer from ${baseURL} within ${request.timeoutMs} ms`,
        cause: error,
      });
    }
    return new CoinDeskError({ message: `${otherwise}: ${describeCause(error)}`, cause: error });
  };

  let response: Response;
  try {
    response = await ky.get(`${baseURL}/index/cc/v1/latest/tick`, {
      searchParams: {
        market: request.market,
        instruments: request.instruments.join(","),
        apply_mapping: "true",
      },
      headers,
      signal: AbortSignal.any([request.signal, deadline]),
      timeout: false,
      retry: 0,
      throwHttpErrors: false,
      ...(request.fetch ? { fetch: request.fetch } : {}),
    });
  } catch (error) {
    throw stopped(error, `could not reach ${baseURL}`);
  }
  const { status } = response;
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw stopped(error, "the connection broke while the answer was being read");
  }

  let body: unknown;
  let parseError: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    parseError = error;
  }
  if (status < 200 || status >= 300) {
    // The API's own `Err.message`, else whatever a gateway or proxy answered instead.
    throw new CoinDeskError({
      message: `CoinDesk answered ${describeHttpFailure(response, text)}`,
    });
  }
  if (parseError !== undefined) {
    // The parser's message quotes the start of the body, which may echo the key in part: a
    // fragment no redaction recognises. Only the size is told, and the parser error not kept.
    throw new CoinDeskError({
      message: `the answer is not valid JSON (${text.length} characters)`,
    });
  }
  return body;
}
