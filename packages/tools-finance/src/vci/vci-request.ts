import type { StockRequest } from "../fetch/stock-arguments.js";

/** Where VCI (Vietcap) is reached unless `VCI_API_URL` says otherwise. */
const defaultVciApiUrl = "https://trading.vietcap.com.vn";

/** `VCI_API_URL` read now (never at import), without a trailing slash. */
export function vciApiUrl(): string {
  return (process.env.VCI_API_URL?.trim() || defaultVciApiUrl).replace(/\/+$/, "");
}

/** The bar sizes VCI's gap-chart endpoint serves. */
export type VciTimeFrame = "ONE_MINUTE" | "ONE_HOUR" | "ONE_DAY";

/** How one of the stock tools' intervals is fetched from VCI and regrouped. */
export interface VciPlan {
  timeFrame: VciTimeFrame;
  /** Regrouping of the fetched bars: minutes per bar, or calendar weeks or months. */
  group?: { minutes: number } | "week" | "month";
}

/**
 * The intervals `fetch_stock_data_vn` serves, as vnstock's VCI source does: minute bars
 * (grouped into 5, 15, 30 minutes), hourly, daily, and daily bars grouped into weeks or months.
 */
export const vciPlans: Readonly<Record<string, VciPlan>> = {
  "1m": { timeFrame: "ONE_MINUTE" },
  "5m": { timeFrame: "ONE_MINUTE", group: { minutes: 5 } },
  "15m": { timeFrame: "ONE_MINUTE", group: { minutes: 15 } },
  "30m": { timeFrame: "ONE_MINUTE", group: { minutes: 30 } },
  "1h": { timeFrame: "ONE_HOUR" },
  "60m": { timeFrame: "ONE_HOUR" },
  "1d": { timeFrame: "ONE_DAY" },
  "1wk": { timeFrame: "ONE_DAY", group: "week" },
  "1mo": { timeFrame: "ONE_DAY", group: "month" },
};

/**
 * VCI's names of the market indices (vnstock's mapping); their values are in points, while
 * stock prices come in VND.
 */
export const vciIndexSymbols: Readonly<Record<string, string>> = {
  VNINDEX: "VNINDEX",
  HNXINDEX: "HNXIndex",
  UPCOMINDEX: "HNXUpcomIndex",
};

/** The JSON body of `POST {VCI_API_URL}/api/chart/OHLCChart/gap-chart`. */
export interface VciChartBody {
  timeFrame: VciTimeFrame;
  symbols: string[];
  /** Unix seconds: bars starting before it. */
  to: number;
  /** How many bars back from `to`. */
  countBack: number;
}

const day = 86_400;
// Generous bars per trading day (a HOSE session has about 255 one-minute bars); extra bars are
// trimmed to the range, missing ones could not be recovered.
const barsPerDay: Record<VciTimeFrame, number> = { ONE_MINUTE: 400, ONE_HOUR: 8, ONE_DAY: 1 };
const maxCountBack = 50_000;

function weekdaysBetween(start: number, end: number): number {
  let count = 0;
  for (let time = start; time < end; time += day) {
    const weekday = new Date(time * 1000).getUTCDay();
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return count;
}

/**
 * The gap-chart body for a validated request. VCI counts back from `to`, so `to` is a day past
 * `end_date` and the count covers every weekday from a day before `start_date`: the margins
 * absorb time-zone stamping, and the rows are cut to the range afterwards.
 */
export function vciChartBody(
  request: StockRequest,
  vciSymbol: string,
  plan: VciPlan,
): VciChartBody {
  const to = request.end + day;
  const days = weekdaysBetween(request.start - day, to);
  return {
    timeFrame: plan.timeFrame,
    symbols: [vciSymbol],
    to,
    countBack: Math.min(maxCountBack, days * barsPerDay[plan.timeFrame] + 2),
  };
}
