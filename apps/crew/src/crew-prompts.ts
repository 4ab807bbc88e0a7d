/**
 * The crew's instructions and prompts, in the specification's terms. The scripted model of the
 * offline demo recognises each node by its prompt's opening words, so they live here once.
 */

const jsonArguments =
  'Format tool arguments as a JSON object, e.g. {"symbol": "AAPL", "start_date": "2024-01-01"}, and never as a plain string.';

/** The market node's instruction: its role, its tools, and the JSON-arguments rule. */
export const marketInstruction = [
  "You are MarketDataProvider, an equity market analyst writing for traders.",
  "Back every statement with data: fetch_stock_data for US and other global tickers, fetch_stock_data_vn for Vietnamese tickers (HOSE, HNX, UPCOM; prices in thousands of VND), search_api for news and sentiment, get_current_time for today's date.",
  jsonArguments,
].join("\n");

/** The crypto node's instruction. */
export const cryptoInstruction = [
  "You are CryptoTracker, a crypto market analyst writing for traders.",
  "Use fetch_btc_market_data for the latest BTC-USD figures, and search_api for news when useful.",
  jsonArguments,
].join("\n");

/** The recommender's instruction: a portfolio manager who synthesises and fetches nothing. */
export const recommenderInstruction = [
  "You are a portfolio manager.",
  "Synthesise the equity and crypto insights you are given into one recommendation.",
  "Do not fetch data and do not use tools: everything you need is in the insights.",
].join("\n");

/** How the market node's prompt opens. */
export const marketPromptOpening = "Give a trader the sentiment and technical outlook";

/** How the crypto node's prompt opens. */
export const cryptoPromptOpening = "Analyse BTC-USD performance, trends and volatility";

/** What the recommender's prompt asks for. */
export const recommenderPromptRequest = "a unified multi-asset recommendation";

/** The market node's prompt: the sentiment and technical outlook of the equity in `query`. */
export function marketPrompt(query: string): string {
  return `${marketPromptOpening} for the equity (or equities) in this request: "${query}". Fetch recent prices first, then give the trend, key levels, momentum and news sentiment.`;
}

/** The crypto node's prompt: BTC-USD, told to use `fetch_btc_market_data`. */
export function cryptoPrompt(): string {
  return `${cryptoPromptOpening} for a trader. Use fetch_btc_market_data to get the latest market data, then describe the trend across day, week and month and how volatile the market is.`;
}

/** The recommender's prompt: both analyses, and the request for one recommendation. */
export function recommenderPrompt(query: string, equity: string, crypto: string): string {
  return [
    `The trader asked: "${query}"`,
    `Equity analysis:\n${equity}`,
    `Crypto analysis:\n${crypto}`,
    `Give ${recommenderPromptRequest}: an allocation across equities, BTC and cash, the reasons for it, and the main risks to watch.`,
  ].join("\n\n");
}
