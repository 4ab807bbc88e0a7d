// Upper-case words that are not tickers in an investor's question.
const notTickers = new Set([
  "A",
  "I",
  "AI",
  "API",
  "BTC",
  "CEO",
  "CPI",
  "ETF",
  "ETH",
  "EU",
  "GDP",
  "IPO",
  "IT",
  "OK",
  "Q1",
  "Q2",
  "Q3",
  "Q4",
  "UK",
  "US",
  "USA",
  "USD",
  "VND",
  "YTD",
  "AND",
  "OR",
  "THE",
  "FOR",
]);

/** Company and index names an investor may write instead of the ticker, lower-case. */
const knownCompanyTickers: Readonly<Record<string, string>> = {
  apple: "AAPL",
  microsoft: "MSFT",
  nvidia: "NVDA",
  tesla: "TSLA",
  alphabet: "GOOGL",
  google: "GOOGL",
  amazon: "AMZN",
  "s&p 500": "^GSPC",
  vietcombank: "VCB",
  vinamilk: "VNM",
  "hoa phat": "HPG",
  vingroup: "VIC",
  "mobile world": "MWG",
  "vn-index": "VNINDEX",
};

/** Tickers listed in Vietnam (HOSE), whose prices come from VCI rather than Yahoo. */
export const vietnameseTickers: ReadonlySet<string> = new Set([
  "ACB",
  "FPT",
  "GAS",
  "HPG",
  "MBB",
  "MSN",
  "MWG",
  "SSI",
  "TCB",
  "VCB",
  "VHM",
  "VIC",
  "VNM",
  "VNINDEX",
]);

const tickerLike = /(?<![\w^.-])\^?[A-Z][A-Z0-9]{0,6}(?:\.[A-Z]{1,3})?(?![\w-])/g;

/**
 * The tickers a question names, in order of appearance and without repeats: upper-case words
 * that look like tickers (`AAPL`, `^GSPC`, `FPT`, `7203.T` aside), and company names found in
 * `names` (lower-case name to ticker; {@link knownCompanyTickers} by default).
 */
export function findTickers(
  text: string,
  names: Readonly<Record<string, string>> = knownCompanyTickers,
): string[] {
  const found: Array<{ at: number; ticker: string }> = [];
  for (const hit of text.matchAll(tickerLike)) {
    if (!notTickers.has(hit[0])) found.push({ at: hit.index, ticker: hit[0] });
  }
  const lower = text.toLowerCase();
  for (const [name, ticker] of Object.entries(names)) {
    const at = lower.search(new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`));
    if (at >= 0) found.push({ at, ticker });
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((hit) => hit.ticker))];
}
