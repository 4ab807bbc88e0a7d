import { percent } from "@framework/cli-kit";
import {
  ChatRequest,
  callTools,
  dateOfCurrentTime,
  findTickers,
  onlySampleQuestions,
  rangeEndingOn,
  rangeInText,
  readChartFigures,
  readPriceFigures,
  readSearchGist,
} from "@framework/demo-kit";
import type { FakeLLMReply, OpenAIChatRequestBody, ScriptedReplyValue } from "@framework/testing";
import type { FinanceReport, StockFigures } from "../finance-report.js";
import { deepSearchAnalyst } from "./deep-search-analyst.js";

const sampleQuestions = [
  "How did NVDA do in 2024? Chart it and write a short research report.",
  "Compare AAPL and MSFT from March 2023 to June 2023.",
];
// Still a valid FinanceReport (the app asks for structured output), with nothing analysed.
const noTickerReport: FinanceReport = {
  summary: onlySampleQuestions(
    "this question names no stock ticker it can look up",
    sampleQuestions,
  ),
  stocks: [],
  news: "no news was searched: the question names no stock.",
};
const wantsReport = /\breport\b|in-depth|\bdeep\b|\bresearch\b/i;

function gather(request: ChatRequest, tickers: string[]): ScriptedReplyValue {
  const today =
    dateOfCurrentTime(request.resultsOf("get_current_time")[0]?.content ?? "") ??
    new Date().toISOString().slice(0, 10);
  const range = rangeInText(request.user) ?? rangeEndingOn(today, 365);
  const perTicker = tickers.flatMap((symbol) =>
    ["fetch_stock_data", "visualize_stock_data", "plot_returns"].map((name) => ({
      name,
      arguments: { symbol, ...range, interval: "1d" },
    })),
  );
  const news = { name: "search_api", arguments: { query: `${tickers.join(" ")} stock news` } };
  const report =
    wantsReport.test(request.user) && request.offers("deepsearch_tool")
      ? [
          {
            name: "deepsearch_tool",
            arguments: {
              query: `${tickers.join(" and ")} stock from ${range.start_date} to ${range.end_date}: performance, news and outlook`,
              max_chapters: 2,
              max_paragraphs_per_chapter: 2,
              max_critical_queries: 1,
              max_revisions: 1,
            },
          },
        ]
      : [];
  return callTools(...perTicker, news, ...report);
}

/** A ticker's figures from the run's tool results; `undefined` when no prices came back. */
function stockFigures(request: ChatRequest, symbol: string): StockFigures | undefined {
  const of = (tool: string) =>
    request.resultsOf(tool).find((result) => result.arguments.symbol === symbol)?.content ?? "";
  const prices = readPriceFigures(of("fetch_stock_data"));
  if (!prices) return undefined;
  const ma20 = readChartFigures(of("visualize_stock_data"))?.lastMa20;
  const above = ma20 !== undefined && prices.lastClose >= ma20;
  return {
    symbol,
    from: prices.from,
    to: prices.to,
    currency: prices.currency,
    firstClose: prices.firstClose,
    lastClose: prices.lastClose,
    returnPercent: prices.periodReturn,
    lowClose: prices.lowClose,
    lowDate: prices.lowDate,
    highClose: prices.highClose,
    highDate: prices.highDate,
    trend:
      ma20 === undefined
        ? "Too few bars for a 20-day average."
        : `The last close is ${above ? "above" : "below"} its 20-day average (MA20 ${ma20.toFixed(2)}), so the short-term trend is ${above ? "up" : "down"}.`,
  };
}

/** The final answer: the JSON of a {@link FinanceReport}, as the structured output asks. */
function answer(request: ChatRequest, tickers: string[]): string {
  const stocks = tickers.flatMap((symbol) => stockFigures(request, symbol) ?? []);
  const missing = tickers.filter((symbol) => !stocks.some((stock) => stock.symbol === symbol));
  const [report] = request.resultsOf("deepsearch_tool");
  const chapters = [...(report?.content ?? "").matchAll(/^## (.+?)\s*$/gm)].map((m) => m[1]);
  const summary = [
    ...stocks.map(
      (stock) =>
        `${stock.symbol} returned ${percent(stock.returnPercent)} from ${stock.from} to ${stock.to} (close ${stock.firstClose.toFixed(2)} -> ${stock.lastClose.toFixed(2)} ${stock.currency}).`,
    ),
    ...missing.map(
      (symbol) => `No price data came back for ${symbol}, so there is nothing to analyse.`,
    ),
    ...(!report
      ? []
      : chapters.length > 0
        ? [`The deep-search report covers ${chapters.join("; ")}.`]
        : [`Deep search did not produce a report (${report.content.split("\n")[0]}).`]),
  ].join(" ");
  const gist = readSearchGist(request.resultsOf("search_api")[0]?.content ?? "");
  const financeReport: FinanceReport = {
    summary,
    stocks,
    news: gist ?? "the web search returned nothing usable.",
  };
  return JSON.stringify(financeReport);
}

/**
 * The finance app's scripted model for the offline demo and the tests. Like a plausible
 * analyst it asks for today's date unless the question names its dates (a year, "March 2023",
 * or days), then for the prices,
 * the candlestick and returns charts of the tickers in the question, the news, and a short
 * deep-search report when the question asks for one; it answers with the numbers those tools
 * returned, as the JSON of a `FinanceReport`. A question naming no ticker gets a report whose
 * summary says plainly that the offline demo only knows its sample questions, not an answer
 * about another stock. It also answers deep search's own model calls.
 */
export const financeAnalyst: FakeLLMReply = (body: OpenAIChatRequestBody) => {
  const request = new ChatRequest(body);
  const deep = deepSearchAnalyst(request);
  if (deep !== undefined) return deep;
  // A retry of the final answer offers no tools; it is answered as the turn was.
  if (!request.offers("fetch_stock_data") && !request.correcting) {
    return "This offline demo's scripted model only answers the finance app's own requests.";
  }
  const tickers = findTickers(request.user).slice(0, 2);
  if (tickers.length === 0) return JSON.stringify(noTickerReport);
  if (!rangeInText(request.user) && !request.called("get_current_time")) {
    return callTools({ name: "get_current_time", arguments: {} });
  }
  if (!request.called("fetch_stock_data")) return gather(request, tickers);
  return answer(request, tickers);
};
