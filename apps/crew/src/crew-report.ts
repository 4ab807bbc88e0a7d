import type { Trading } from "./trading-state.js";

function section(title: string, body: string | undefined): string {
  return `## ${title}\n\n${body?.trim() || "(not written)"}\n`;
}

/** The crew's answer for a reader: both insights, then the final recommendation. */
export function renderCrewReport(state: Trading): string {
  return [
    section("Equity insight (MarketDataProvider)", state.equity_insight),
    section("Crypto insight (CryptoTracker)", state.crypto_insight),
    section("Final recommendation (RecommenderAgent)", state.final_recommendation),
  ].join("\n");
}
