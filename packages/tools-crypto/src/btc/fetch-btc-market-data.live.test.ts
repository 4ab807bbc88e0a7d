import { describe, expect, it } from "vitest";
import { fetch_btc_market_data } from "./fetch-btc-market-data.js";

// Talks to the real CoinDesk data API; run with FRAMEWORK_LIVE=1 (COINDESK_API_KEY optional).
describe.skipIf(process.env.FRAMEWORK_LIVE !== "1")("fetch_btc_market_data (live)", () => {
  it("returns the eight-line summary from the real API", async () => {
    const text = await fetch_btc_market_data({});
    const lines = text.split("\n");
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe("--- BTC-USD Market Data ---");
    expect(lines[1]).toMatch(/^Current Price: \$\d+\.\d{2} USD$/);
    expect(lines[2]).toMatch(/^Day Change: -?\d+\.\d{2} \(-?\d+\.\d{2}%\)$/);
    expect(lines[5]).toMatch(/^24h Range: \$\d+\.\d{2} - \$\d+\.\d{2}$/);
    expect(lines[7]).toMatch(/^Volatility Context: Day High \$\d+\.\d{2} \/ Low \$\d+\.\d{2}$/);
  });
});
