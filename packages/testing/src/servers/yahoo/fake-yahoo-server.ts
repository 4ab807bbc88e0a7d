import {
  type FakeResponse,
  type FakeServer,
  type RecordedRequest,
  type StartFakeServerOptions,
  startFakeServer,
} from "../../server/fake-server.js";
import {
  yahooChartBody,
  yahooChartErrorBody,
  yahooInvalidIntervalDescription,
  yahooNotFoundBody,
  yahooNullMetaBody,
} from "./yahoo-chart-response.js";
import {
  type FakeYahooInterval,
  type FakeYahooMarketOptions,
  fakeYahooDailySeries,
  fakeYahooIntervals,
  generateFakeYahooBars,
  isFakeYahooIntraday,
  resolveFakeYahooSymbol,
} from "./yahoo-price-series.js";

/** Options of {@link startFakeYahooServer}. */
export interface FakeYahooServerOptions extends StartFakeServerOptions, FakeYahooMarketOptions {
  /**
   * How a known symbol's range without bars is answered: `no-timestamps` (default) with the
   * full `meta` block and no `timestamp`; `null-meta` with `meta: null` and a `chart.error`
   * ({@link yahooNullMetaBody}). Yahoo answers both ways.
   */
  emptyAnswer?: "no-timestamps" | "null-meta";
}

/**
 * Yahoo's rate-limit answer (HTTP 429 with a plain-text body), for
 * `server.injectFaults(yahooTooManyRequests)`.
 */
export const yahooTooManyRequests: FakeResponse = Object.freeze({
  status: 429,
  headers: { "content-type": "text/plain;charset=utf-8" },
  body: "Too Many Requests",
});

const maxIntradayDays: Partial<Record<FakeYahooInterval, number>> = { "1m": 8 };
const defaultMaxIntradayDays = 60;

/**
 * Starts a fake of Yahoo Finance's chart API, `GET /v8/finance/chart/:symbol` with
 * `period1`, `period2` (unix seconds) and `interval`, as yahoo-finance2's `chart()` calls it.
 * Known symbols get a deterministic weekday series (see `generateFakeYahooBars`), dated in
 * their exchange's zone; an unknown symbol gets Yahoo's 404 body; a range without trading
 * days gets one of Yahoo's empty answers (see `emptyAnswer`). With `now`, the market has a
 * clock and answers end with Yahoo's live row.
 * Point `YAHOO_FINANCE_URL` at `server.url`.
 */
export function startFakeYahooServer(options: FakeYahooServerOptions = {}): Promise<FakeServer> {
  return startFakeServer((request) => answerChart(request, options), options);
}

function answerChart(request: RecordedRequest, options: FakeYahooServerOptions): FakeResponse {
  const match = /^\/v8\/finance\/chart\/([^/]+)$/.exec(request.path);
  if (request.method !== "GET" || !match?.[1]) return { status: 404, body: "Not Found" };
  const symbol = decodeURIComponent(match[1]);
  const profile = resolveFakeYahooSymbol(symbol, options);
  const daily = fakeYahooDailySeries(symbol, options);
  if (!profile || !daily) return { status: 404, body: yahooNotFoundBody };

  const interval = request.query.interval ?? "1d";
  if (!isInterval(interval)) {
    return badRequest(yahooInvalidIntervalDescription(interval));
  }
  const period1 = Number(request.query.period1);
  const period2 = Number(request.query.period2);
  if (!Number.isInteger(period1) || !Number.isInteger(period2)) {
    return badRequest("Invalid input - period1 and period2 must be unix timestamps in seconds");
  }
  if (period1 > period2) {
    return badRequest(
      `Invalid input - start date cannot be after end date. startDate = ${period1}, endDate = ${period2}`,
    );
  }
  const intradayLimit = intradayDaysLimit(interval);
  if (intradayLimit !== undefined && period2 - period1 > intradayLimit * 86_400) {
    const detail =
      interval === "1m"
        ? `Only ${intradayLimit} days worth of 1m granularity data are allowed to be fetched per request.`
        : `The requested range must be within the last ${intradayLimit} days.`;
    return {
      status: 422,
      body: yahooChartErrorBody(
        "Unprocessable Entity",
        `${interval} data not available for startTime=${period1} and endTime=${period2}. ${detail}`,
      ),
    };
  }
  const seriesRequest = { period1, period2, interval };
  const bars = generateFakeYahooBars(symbol, seriesRequest, options) ?? [];
  if (bars.length === 0 && options.emptyAnswer === "null-meta") return { body: yahooNullMetaBody };
  const now = options.now && Math.floor(options.now.getTime() / 1000);
  return {
    body: yahooChartBody({
      symbol,
      profile,
      request: seriesRequest,
      bars,
      daily,
      ...(now !== undefined ? { now } : {}),
    }),
  };
}

function isInterval(value: string): value is FakeYahooInterval {
  return (fakeYahooIntervals as readonly string[]).includes(value);
}

function intradayDaysLimit(interval: FakeYahooInterval): number | undefined {
  if (!isFakeYahooIntraday(interval)) return undefined;
  return maxIntradayDays[interval] ?? defaultMaxIntradayDays;
}

function badRequest(description: string): FakeResponse {
  return { status: 400, body: yahooChartErrorBody("Bad Request", description) };
}
