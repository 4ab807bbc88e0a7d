import { describeHttpFailure, type ToolContext } from "@framework/core";
import ky, { HTTPError } from "ky";
import type { PriceTableSource } from "../fetch/price-table-source.js";
import type { StockRequest } from "../fetch/stock-arguments.js";
import { type PriceServiceOptions, trimmedBaseURL } from "../stock-tools-options.js";
import type { PriceTable } from "../table/price-table.js";
import { groupVciBars, readVciBars, toPriceRows, vietnamDate } from "./vci-bars.js";
import { vciApiUrl, vciChartBody, vciIndexSymbols, vciPlans } from "./vci-request.js";

/** How long one request to VCI may take before it counts as failed. */
const defaultVciTimeoutMs = 30_000;

/**
 * `VCI_TIMEOUT_MS`, read at call time: how long the whole exchange with VCI (body included)
 * may take. Falls back to 30 s when unset or not a positive number.
 */
function vciTimeoutMs(): number {
  const value = Number(process.env.VCI_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : defaultVciTimeoutMs;
}

/** The currency label of a stock's table: VCI's VND prices divided by 1000, as quoted. */
const vnStockCurrency = "VND (thousands)";

/** The label of an index's table, whose values are points. */
const vnIndexCurrency = "points";

const gapChartPath = "/api/chart/OHLCChart/gap-chart";

/** The base URL and time limit of one request: those given, else the environment's now. */
function resolveSettings(settings: PriceServiceOptions): { base: string; timeoutMs: number } {
  return {
    base: settings.baseURL === undefined ? vciApiUrl() : trimmedBaseURL(settings.baseURL),
    timeoutMs: settings.timeoutMs ?? vciTimeoutMs(),
  };
}

function describeVciError(error: unknown, settings: PriceServiceOptions): string {
  const { base, timeoutMs } = resolveSettings(settings);
  // ky's own TimeoutError and the deadline signal's DOMException share this name.
  if (error instanceof Error && error.name === "TimeoutError")
    return `no answer from ${base} within ${timeoutMs} ms`;
  if (!(error instanceof Error)) return String(error);
  if (error.name === "AbortError") return "the request was cancelled";
  if (error instanceof SyntaxError) return `the answer is not valid JSON (${error.message})`;
  const cause = error.cause instanceof Error ? error.cause : undefined;
  if (cause) {
    const code = (cause as Error & { code?: string }).code;
    return `could not reach ${base}: ${cause.message || code}`;
  }
  return error.message;
}

async function requestVciTable(
  request: StockRequest,
  context: Pick<ToolContext, "signal">,
  settings: PriceServiceOptions,
): Promise<PriceTable> {
  const plan = vciPlans[request.interval];
  if (!plan) {
    throw new Error(
      `interval "${request.interval}" is not served by VCI: use one of ${Object.keys(vciPlans).join(", ")}`,
    );
  }
  const indexName = vciIndexSymbols[request.symbol];
  const vciSymbol = indexName ?? request.symbol;
  const { base, timeoutMs } = resolveSettings(settings);
  const { origin } = new URL(base);
  const answer: unknown = await ky
    .post(`${base}${gapChartPath}`, {
      json: vciChartBody(request, vciSymbol, plan),
      headers: {
        accept: "application/json, text/plain, */*",
        origin,
        referer: `${origin}/`,
      },
      // One deadline for the whole exchange: ky's `timeout` stops at the headers, and a server
      // that stalls mid-body would otherwise hang the tool until the run is cancelled.
      timeout: false,
      retry: 0,
      signal: AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]),
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    })
    .json()
    .catch(async (error: unknown) => {
      if (!(error instanceof HTTPError)) throw error;
      const body = await error.response.text().catch(() => "");
      throw new Error(`VCI answered ${describeHttpFailure(error.response, body)}`);
    });
  const read = readVciBars(answer, vciSymbol);
  if (!read.ok) throw new Error(read.reason);
  const inRange = read.bars.filter((bar) => {
    const date = vietnamDate(bar.time);
    return date >= request.startDate && date < request.endDate;
  });
  return {
    symbol: request.symbol,
    interval: request.interval,
    currency: indexName ? vnIndexCurrency : vnStockCurrency,
    rows: toPriceRows(groupVciBars(inRange, plan.group), {
      divisor: indexName ? 1 : 1000,
      intraday: plan.timeFrame !== "ONE_DAY",
    }),
  };
}

/**
 * VCI's gap-chart API as a price source: prices in thousands of VND, indices in points. The
 * settings left out are read from `VCI_API_URL` and `VCI_TIMEOUT_MS` at each request.
 */
export function createVciPriceSource(settings: PriceServiceOptions = {}): PriceTableSource {
  return {
    request: (request, context) => requestVciTable(request, context, settings),
    describeError: (error) => describeVciError(error, settings),
  };
}
