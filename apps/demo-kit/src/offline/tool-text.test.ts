import { describe, expect, it } from "vitest";
import { readBtcFigures, readChartFigures, readPriceFigures, readSearchGist } from "./tool-text.js";

describe("tool text readers", () => {
  it("read a price table summary", () => {
    const text = [
      "AAPL price table, interval 1d, prices in USD: 251 rows from 2024-01-02 to 2024-12-31.",
      "Date | Open | High | Low | Close | Volume",
      "... 245 rows omitted ...",
      "Period return: +33.83% (close 185.64 -> 248.44)",
      "Lowest close: 165.00 on 2024-04-19; highest close: 259.02 on 2024-12-26",
      "Average volume: 57000000",
    ].join("\n");
    expect(readPriceFigures(text)).toEqual({
      symbol: "AAPL",
      currency: "USD",
      rows: 251,
      from: "2024-01-02",
      to: "2024-12-31",
      periodReturn: 33.83,
      firstClose: 185.64,
      lastClose: 248.44,
      lowClose: 165,
      lowDate: "2024-04-19",
      highClose: 259.02,
      highDate: "2024-12-26",
    });
    expect(readPriceFigures("null: no price table. The request failed")).toBeUndefined();
  });

  it("read the BTC summary", () => {
    const text = [
      "--- BTC-USD Market Data ---",
      "Current Price: $97234.56 USD",
      "Day Change: 1113.69 (1.16%)",
      "Week Change: -3024.23 (-3.21%)",
      "Month Change: 3805.36 (4.07%)",
      "24h Range: $95640.27 - $97620.91",
      "Year Change: 4.07%",
      "Volatility Context: Day High $97510.22 / Low $95870.40",
    ].join("\n");
    expect(readBtcFigures(text)).toMatchObject({
      price: 97234.56,
      weekChange: -3024.23,
      weekPercent: -3.21,
      low24h: 95640.27,
      dayLow: 95870.4,
    });
    expect(readBtcFigures("Error fetching BTC price: no answer")).toBeUndefined();
  });

  it("read chart paths and figures", () => {
    const text = [
      "Candlestick chart of AAPL with MA20 and volume (1d): 251 bars from 2024-01-02 to 2024-12-31.",
      "Close 185.64 -> 248.44 (+33.83%); last MA20 245.10; average volume 57000000.",
      "Interactive chart: /tmp/charts/AAPL_candlestick.html",
      "Image: /tmp/charts/AAPL_candlestick.png",
    ].join("\n");
    expect(readChartFigures(text)).toEqual({
      htmlPath: "/tmp/charts/AAPL_candlestick.html",
      pngPath: "/tmp/charts/AAPL_candlestick.png",
      lastMa20: 245.1,
    });
    expect(readChartFigures("null: no chart was drawn")).toBeUndefined();
  });

  it("read the gist of a search", () => {
    expect(readSearchGist("US stocks edged higher. Yields eased.")).toBe("US stocks edged higher.");
    expect(
      readSearchGist("No direct answer was found. Top web results:\n\n1. Stocks rise\nhttps://x"),
    ).toBe("Stocks rise");
    expect(readSearchGist("Web search failed: TAVILY_API_KEY is not set.")).toBeUndefined();
    expect(readSearchGist("Error: The user declined to run tool search_api.")).toBeUndefined();
  });
});
