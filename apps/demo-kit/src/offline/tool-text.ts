/**
 * Readers of the texts the reference tools give the model, so a scripted model can quote the
 * real numbers it was given. Each returns `undefined` when the text reports a failure.
 */

/** The figures of a price table's summary (what `fetch_stock_data` shows the model). */
export interface PriceFigures {
  symbol: string;
  currency: string;
  rows: number;
  from: string;
  to: string;
  /** In percent, signed. */
  periodReturn: number;
  firstClose: number;
  lastClose: number;
  lowClose: number;
  lowDate: string;
  highClose: number;
  highDate: string;
}

const number = String.raw`([+-]?\d+(?:\.\d+)?)`;

function match(text: string, pattern: string): string[] | undefined {
  const found = new RegExp(pattern, "m").exec(text);
  return found ? found.slice(1) : undefined;
}

/** Reads a price table summary; `undefined` for the failure text (`null: no price table...`). */
export function readPriceFigures(text: string): PriceFigures | undefined {
  const head = match(
    text,
    String.raw`^(\S+) price table, interval \S+, prices in (.+?): (\d+) rows from (\S+) to (\S+?)\.`,
  );
  const period = match(
    text,
    String.raw`Period return: ${number}% \(close ${number} -> ${number}\)`,
  );
  const range = match(
    text,
    String.raw`Lowest close: ${number} on (\S+); highest close: ${number} on (\S+)`,
  );
  if (!head || !period || !range) return undefined;
  const [symbol = "", currency = "", rows = "", from = "", to = ""] = head;
  const [periodReturn = "", firstClose = "", lastClose = ""] = period;
  const [lowClose = "", lowDate = "", highClose = "", highDate = ""] = range;
  return {
    symbol,
    currency,
    rows: Number(rows),
    from,
    to,
    periodReturn: Number(periodReturn),
    firstClose: Number(firstClose),
    lastClose: Number(lastClose),
    lowClose: Number(lowClose),
    lowDate,
    highClose: Number(highClose),
    highDate,
  };
}

/** The figures of `fetch_btc_market_data`'s eight-line summary. */
export interface BtcFigures {
  price: number;
  dayChange: number;
  dayPercent: number;
  weekChange: number;
  weekPercent: number;
  monthChange: number;
  monthPercent: number;
  low24h: number;
  high24h: number;
  yearPercent: number;
  dayHigh: number;
  dayLow: number;
}

/** Reads the BTC-USD summary; `undefined` for `Error fetching BTC price: ...`. */
export function readBtcFigures(text: string): BtcFigures | undefined {
  const price = match(text, String.raw`Current Price: \$${number} USD`);
  const day = match(text, String.raw`Day Change: ${number} \(${number}%\)`);
  const week = match(text, String.raw`Week Change: ${number} \(${number}%\)`);
  const month = match(text, String.raw`Month Change: ${number} \(${number}%\)`);
  const range = match(text, String.raw`24h Range: \$${number} - \$${number}`);
  const year = match(text, `Year Change: ${number}%`);
  const context = match(text, String.raw`Day High \$${number} / Low \$${number}`);
  if (!price || !day || !week || !month || !range || !year || !context) return undefined;
  const n = (values: string[], index: number) => Number(values[index]);
  return {
    price: n(price, 0),
    dayChange: n(day, 0),
    dayPercent: n(day, 1),
    weekChange: n(week, 0),
    weekPercent: n(week, 1),
    monthChange: n(month, 0),
    monthPercent: n(month, 1),
    low24h: n(range, 0),
    high24h: n(range, 1),
    yearPercent: n(year, 0),
    dayHigh: n(context, 0),
    dayLow: n(context, 1),
  };
}

/** Where a chart tool saved its files, and the figure it reported. */
export interface ChartFigures {
  htmlPath: string;
  pngPath: string;
  /** The last MA20 of a candlestick chart. */
  lastMa20?: number;
  /** The final cumulative return of a returns chart, in percent. */
  cumulativeReturn?: number;
}

/** Reads a chart tool's text (`visualize_stock_data`, `plot_returns`); `undefined` for `null: ...`. */
export function readChartFigures(text: string): ChartFigures | undefined {
  const html = match(text, "Interactive chart: (.+)");
  const png = match(text, "Image: (.+)");
  if (!html?.[0] || !png?.[0]) return undefined;
  const ma20 = match(text, `last MA20 ${number}`);
  const cumulative = match(text, `Cumulative return ${number}%`);
  return {
    htmlPath: html[0].trim(),
    pngPath: png[0].trim(),
    ...(ma20 ? { lastMa20: Number(ma20[0]) } : {}),
    ...(cumulative ? { cumulativeReturn: Number(cumulative[0]) } : {}),
  };
}

/**
 * The gist of a web search answer (`search_api`): its first sentence, or the first result's
 * title when the service wrote no answer; `undefined` when the search failed or did not run
 * (an `Error: ...` result, such as a call the user declined).
 */
export function readSearchGist(text: string): string | undefined {
  if (/^Web search (failed|was cancelled)|^Web search needs|^No web results|^Error:/.test(text)) {
    return undefined;
  }
  const topResult = match(text, String.raw`^1\. (.+)$`);
  if (text.startsWith("No direct answer") && topResult?.[0]) return topResult[0];
  const sentence = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (sentence?.[1] ?? text.trim()).replace(/\s+/g, " ");
}
