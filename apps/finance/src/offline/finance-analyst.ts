import {
  ChatRequest,
  callTools,
  dateOfCurrentTime,
  findTickers,
  onlySampleQuestions,
  percent,
  rangeEndingOn,
  rangeInText,
  readChartFigures,
  readPriceFigures,
  readSearchGist,
} from "@framework/demo-kit";
import type { FakeLLMReply, OpenAIChatRequestBody, ScriptedReplyValue } from "@framework/testing";
import { deepSearchAnalyst } from "./deep-search-analyst.js";

const sampleQuestions = [
  "How did NVDA do in 2024? Chart it and write a short research report.",
  "Compare AAPL and MSFT from March 2023 to June 2023.",
];
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

function describeTicker(request: ChatRequest, symbol: string): string {
  const of = (tool: string) =>
    request.resultsOf(tool).find((result) => result.arguments.symbol === symbol)?.content ?? "";
  const prices = readPriceFigures(of("fetch_stock_data"));
  if (!prices) return `${symbol}: no price data came back, so there is nothing to analyse.`;
  const candles = readChartFigures(of("visualize_stock_data"));
  const returns = readChartFigures(of("plot_returns"));
  const ma20 = candles?.lastMa20;
  const trend =
    ma20 === undefined
      ? "Too few bars for a 20-day average."
      : `The last close is ${prices.lastClose >= ma20 ? "above" : "below"} its 20-day average (MA20 ${ma20.toFixed(2)}), so the short-term trend is ${prices.lastClose >= ma20 ? "up" : "down"}.`;
  return [
    `${symbol}, ${prices.from} to ${prices.to} (${prices.rows} daily bars, ${prices.currency}):`,
    `- Performance: ${percent(prices.periodReturn)}, close ${prices.firstClose.toFixed(2)} -> ${prices.lastClose.toFixed(2)}; lowest close ${prices.lowClose.toFixed(2)} on ${prices.lowDate}, highest ${prices.highClose.toFixed(2)} on ${prices.highDate}.`,
    `- Trend: ${trend}`,
    ...(returns?.cumulativeReturn === undefined
      ? []
      : [`- Cumulative return: ${percent(returns.cumulativeReturn)} over the period.`]),
    `- Charts: ${[candles?.pngPath, returns?.pngPath].filter(Boolean).join(" and ") || "none could be drawn"}.`,
  ].join("\n");
}

function answer(request: ChatRequest, tickers: string[]): string {
  const gist = readSearchGist(request.resultsOf("search_api")[0]?.content ?? "");
  const [report] = request.resultsOf("deepsearch_tool");
  const chapters = [...(report?.content ?? "").matchAll(/^## (.+?)\s*$/gm)].map((m) => m[1]);
  const reportLine = !report
    ? []
    : chapters.length > 0
      ? [`Report: the deep-search report covers ${chapters.join("; ")}.`]
      : [`Report: deep search did not produce a report (${report.content.split("\n")[0]}).`];
  return [
    ...tickers.map((symbol) => describeTicker(request, symbol)),
    "",
    `News: ${gist ?? "the web search returned nothing usable."}`,
    ...reportLine,
  ].join("\n");
}

/**
 * The finance app's scripted model for the offline demo and the tests. Like a plausible
 * analyst it asks for today's date unless the question names its dates (a year, "March 2023",
 * or days), then for the prices,
 * the candlestick and returns charts of the tickers in the question, the news, and a short
 * deep-search report when the question asks for one; it answers with the numbers and chart
 * paths those tools returned. A question naming no ticker gets a plain "the offline demo only
 * knows its sample questions", not an answer about another stock. It also answers deep
 * search's own model calls.
 */
export const financeAnalyst: FakeLLMReply = (body: OpenAIChatRequestBody) => {
  const request = new ChatRequest(body);
  const deep = deepSearchAnalyst(request);
  if (deep !== undefined) return deep;
  if (!request.offers("fetch_stock_data")) {
    return "This offline demo's scripted model only answers the finance app's own requests.";
  }
  const tickers = findTickers(request.user).slice(0, 2);
  if (tickers.length === 0) {
    return onlySampleQuestions(
      "this question names no stock ticker it can look up",
      sampleQuestions,
    );
  }
  if (!rangeInText(request.user) && !request.called("get_current_time")) {
    return callTools({ name: "get_current_time", arguments: {} });
  }
  if (!request.called("fetch_stock_data")) return gather(request, tickers);
  return answer(request, tickers);
};
