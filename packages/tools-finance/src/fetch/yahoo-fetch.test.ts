import { afterEach, describe, expect, it } from "vitest";
import { defaultYahooFinanceUrl, redirectYahooUrl, yahooFinanceUrl } from "./yahoo-fetch.js";

const chartUrl = "/v8/finance/chart/AAPL?period1=1&period2=2&interval=1d";

describe("redirectYahooUrl", () => {
  it("sends both Yahoo query hosts to the configured origin, path and query kept", () => {
    const base = "http://127.0.0.1:4000";
    expect(redirectYahooUrl(`https://query2.finance.yahoo.com${chartUrl}`, base)).toBe(
      `${base}${chartUrl}`,
    );
    expect(redirectYahooUrl(`https://query1.finance.yahoo.com${chartUrl}`, base)).toBe(
      `${base}${chartUrl}`,
    );
  });

  it("keeps a path prefix of the configured URL", () => {
    expect(
      redirectYahooUrl(`https://query2.finance.yahoo.com${chartUrl}`, "http://proxy/yahoo"),
    ).toBe(`http://proxy/yahoo${chartUrl}`);
  });

  it("leaves URLs alone under the default origin, and other hosts always", () => {
    const yahoo = `https://query1.finance.yahoo.com${chartUrl}`;
    expect(redirectYahooUrl(yahoo, defaultYahooFinanceUrl)).toBe(yahoo);
    const other = "https://fc.yahoo.com/";
    expect(redirectYahooUrl(other, "http://127.0.0.1:4000")).toBe(other);
    const lookalike = "https://query2.finance.yahoo.com.evil.example/x";
    expect(redirectYahooUrl(lookalike, "http://127.0.0.1:4000")).toBe(lookalike);
  });
});

describe("yahooFinanceUrl", () => {
  const previous = process.env.YAHOO_FINANCE_URL;
  afterEach(() => {
    if (previous === undefined) delete process.env.YAHOO_FINANCE_URL;
    else process.env.YAHOO_FINANCE_URL = previous;
  });

  it("reads YAHOO_FINANCE_URL at call time, without a trailing slash", () => {
    delete process.env.YAHOO_FINANCE_URL;
    expect(yahooFinanceUrl()).toBe("https://query2.finance.yahoo.com");
    process.env.YAHOO_FINANCE_URL = "http://127.0.0.1:4000/";
    expect(yahooFinanceUrl()).toBe("http://127.0.0.1:4000");
  });
});
