import { percent } from "@framework/cli-kit";
import {
  ChatRequest,
  callTools,
  dateOfCurrentTime,
  findTickers,
  onlySampleQuestions,
  type PriceFigures,
  rangeEndingOn,
  rangeInText,
  readBtcFigures,
  readPriceFigures,
  readSearchGist,
  vietnameseTickers,
} from "@framework/demo-kit";
import type { FakeLLMReply, OpenAIChatRequestBody, ScriptedReplyValue } from "@framework/testing";
import {
  cryptoPromptOpening,
  marketPromptOpening,
  recommenderPromptRequest,
} from "../crew-prompts.js";
import type { Recommendation } from "../recommendation.js";

// Six months of daily bars: enough for a trend and its key levels.
const lookbackDays = 182;
const sampleQuestions = [
  "Compare AAPL and FPT with Bitcoin: how should I split a growth portfolio this month?",
  "Should I buy NVDA or BTC after 2024?",
];
const noTicker = "this request names no stock ticker it can look up";

// Still a valid Recommendation (the recommender asks for structured output), all in cash:
// nothing was analysed, so nothing is recommended.
const noRecommendation: Recommendation = {
  action: "No recommendation: stay in cash, nothing was analysed.",
  allocation: [{ asset: "cash", percent: 100 }],
  rationale: onlySampleQuestions(noTicker, sampleQuestions),
  risks: [],
};

function trendOf(change: number): string {
  if (change > 5) return "uptrend";
  if (change < -5) return "downtrend";
  return "range-bound";
}

function describeStock(figures: PriceFigures): string {
  const span = figures.highClose - figures.lowClose;
  const position = span > 0 ? (figures.lastClose - figures.lowClose) / span : 0.5;
  const belowHigh = (1 - figures.lastClose / figures.highClose) * 100;
  const read =
    position > 0.8
      ? "pressing against resistance"
      : position < 0.2
        ? "testing support"
        : "mid-range";
  return [
    `- ${figures.symbol}: last close ${figures.lastClose.toFixed(2)} ${figures.currency}, ${percent(figures.periodReturn)} over the period`,
    `(low ${figures.lowClose.toFixed(2)} on ${figures.lowDate}, high ${figures.highClose.toFixed(2)} on ${figures.highDate}).`,
    `Trend: ${trendOf(figures.periodReturn)}, ${read}, ${belowHigh.toFixed(1)}% below the period high;`,
    `support near ${figures.lowClose.toFixed(2)}, resistance at ${figures.highClose.toFixed(2)}.`,
  ].join(" ");
}

/** The market node: today's date, then prices and news, then the outlook from their numbers. */
function analyseMarket(request: ChatRequest): ScriptedReplyValue {
  const query = /request: "(.*)"\./s.exec(request.user)?.[1] ?? request.user;
  const tickers = findTickers(query);
  if (tickers.length === 0) return onlySampleQuestions(noTicker, sampleQuestions);
  const asked = rangeInText(query);
  if (!asked && !request.called("get_current_time")) {
    return callTools({ name: "get_current_time", arguments: {} });
  }
  const prices = [
    ...request.resultsOf("fetch_stock_data"),
    ...request.resultsOf("fetch_stock_data_vn"),
  ];
  if (prices.length === 0) {
    const today =
      dateOfCurrentTime(request.resultsOf("get_current_time")[0]?.content ?? "") ??
      new Date().toISOString().slice(0, 10);
    const range = asked ?? rangeEndingOn(today, lookbackDays);
    return callTools(
      ...tickers.map((symbol) => ({
        name: vietnameseTickers.has(symbol) ? "fetch_stock_data_vn" : "fetch_stock_data",
        arguments: { symbol, ...range, interval: "1d" },
      })),
      { name: "search_api", arguments: { query: `${tickers.join(" ")} stock news and sentiment` } },
    );
  }
  const lines = prices.map((result) => {
    const figures = readPriceFigures(result.content);
    return figures
      ? describeStock(figures)
      : `- ${String(result.arguments.symbol)}: no price data came back, so no technical read.`;
  });
  const gist = readSearchGist(request.resultsOf("search_api")[0]?.content ?? "");
  const range = prices[0]?.arguments;
  return [
    `Equity outlook for ${tickers.join(", ")} (daily bars from ${String(range?.start_date)}${asked ? ` to ${String(range?.end_date)}, end excluded` : ", up to today"}):`,
    "",
    ...lines,
    "",
    `Sentiment: ${gist ?? "no news came back from the web search."}`,
  ].join("\n");
}

function direction(change: number): string {
  return change > 0 ? "up" : change < 0 ? "down" : "flat";
}

/** The crypto node: the BTC tick, then trend and volatility from its numbers. */
function trackCrypto(request: ChatRequest): ScriptedReplyValue {
  const [tick] = request.resultsOf("fetch_btc_market_data");
  if (!tick) return callTools({ name: "fetch_btc_market_data", arguments: {} });
  const btc = readBtcFigures(tick.content);
  if (!btc)
    return `BTC-USD data could not be fetched (${tick.content}), so there is no crypto view.`;
  const rangePercent = ((btc.high24h - btc.low24h) / btc.price) * 100;
  const moves = [btc.dayPercent, btc.weekPercent, btc.monthPercent];
  const trend = moves.every((move) => move > 0)
    ? "up on the day, the week and the month: momentum is positive"
    : moves.every((move) => move < 0)
      ? "down on the day, the week and the month: momentum is negative"
      : `mixed: ${direction(btc.dayPercent)} on the day, ${direction(btc.weekPercent)} on the week, ${direction(btc.monthPercent)} on the month`;
  return [
    `BTC-USD at $${btc.price.toFixed(2)}: day ${percent(btc.dayPercent)} (${btc.dayChange >= 0 ? "+" : ""}${btc.dayChange.toFixed(2)} USD), week ${percent(btc.weekPercent)}, month ${percent(btc.monthPercent)}, year ${percent(btc.yearPercent)}.`,
    `Trend: ${trend}.`,
    `Volatility: 24h range $${btc.low24h.toFixed(2)} - $${btc.high24h.toFixed(2)} (${rangePercent.toFixed(2)}% of the price); today's high/low $${btc.dayHigh.toFixed(2)} / $${btc.dayLow.toFixed(2)}.`,
    `Levels: support near $${btc.low24h.toFixed(2)}, resistance at $${btc.high24h.toFixed(2)}.`,
  ].join("\n");
}

/**
 * The recommender: an allocation from the two insights' numbers, without tools, answered as
 * the JSON of a {@link Recommendation}, as its structured-output request asks.
 */
function recommend(request: ChatRequest): ScriptedReplyValue {
  const prompt = request.user;
  const query = /^The trader asked: "(.*)"$/m.exec(prompt)?.[1] ?? "the trader's request";
  if (findTickers(query).length === 0 && !/\b(bitcoin|btc|crypto)/i.test(query)) {
    return JSON.stringify(noRecommendation);
  }
  const equityMoves = [
    ...prompt.matchAll(/^- (\S+): last close [\d.]+ .+?, ([+-]\d+\.\d+)% over the period/gm),
  ].map((hit) => ({ symbol: hit[1] ?? "", change: Number(hit[2]) }));
  const month = Number(/month ([+-]\d+\.\d+)%/.exec(prompt)?.[1] ?? Number.NaN);
  const week = Number(/week ([+-]\d+\.\d+)%/.exec(prompt)?.[1] ?? Number.NaN);
  const average =
    equityMoves.reduce((sum, move) => sum + move.change, 0) / Math.max(1, equityMoves.length);
  let equities = 60;
  let bitcoin = 10;
  if (equityMoves.length > 0 && average > 5) equities += 10;
  if (equityMoves.length === 0 || average < -5) equities -= 15;
  if (month > 5) bitcoin += 5;
  if (Number.isNaN(month) || week < -5) bitcoin -= 5;
  const cash = 100 - equities - bitcoin;
  const equityLine =
    equityMoves.length > 0
      ? `Equities: ${equityMoves.map((move) => `${move.symbol} ${percent(move.change)}`).join(", ")} over the period (average ${percent(average)}), ${trendOf(average)}.`
      : "Equities: no price data came back, so the equity weight is cut.";
  const btcLine = Number.isNaN(month)
    ? "BTC: no market data came back, so the BTC weight is cut."
    : `BTC: ${percent(week)} on the week and ${percent(month)} on the month; keep it a satellite position sized for its volatility.`;
  const recommendation: Recommendation = {
    action: `Hold ${equities}% equities, ${bitcoin}% BTC and ${cash}% cash, and rebalance when a weight drifts.`,
    allocation: [
      { asset: "equities", percent: equities },
      { asset: "BTC", percent: bitcoin },
      { asset: "cash", percent: cash },
    ],
    rationale: [
      equityLine,
      btcLine,
      `Cash: ${cash}% keeps room to add on pullbacks to the support levels named above.`,
    ].join(" "),
    risks: [
      "A break below the equity support levels or the BTC 24h low would argue for cutting risk.",
      "Rebalance when a weight drifts more than 5 points from target.",
    ],
  };
  return JSON.stringify(recommendation);
}

/**
 * The crew's scripted model for the offline demo and the tests. It recognises each node by
 * its prompt and acts like a plausible analyst: the market node asks for today's date (unless
 * the request names its dates: a year, "March 2024" or days), then for the prices of the
 * tickers in the request (`fetch_stock_data_vn` for Vietnamese ones)
 * and the news, and writes its outlook from the returned numbers; the crypto node calls
 * `fetch_btc_market_data` and reads trend and volatility from it; the recommender turns the
 * two insights' numbers into an allocation without calling any tool, as structured output. A
 * request naming no ticker (nor Bitcoin) gets a recommendation that says plainly the offline
 * demo only knows its sample questions, instead of an allocation for something else.
 */
export const crewAnalyst: FakeLLMReply = (body: OpenAIChatRequestBody) => {
  const request = new ChatRequest(body);
  if (request.user.includes(recommenderPromptRequest)) return recommend(request);
  if (request.user.startsWith(cryptoPromptOpening)) return trackCrypto(request);
  if (request.user.startsWith(marketPromptOpening)) return analyseMarket(request);
  return "This offline demo's scripted model only answers the crew's own prompts.";
};
