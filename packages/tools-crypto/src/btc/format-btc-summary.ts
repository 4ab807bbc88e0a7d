import type { BtcTick } from "./btc-tick.js";
import { formatTwoDecimals as f } from "./format-two-decimals.js";

/**
 * The eight-line BTC-USD summary of the spec ("Crypto index tick"), numbers with two decimals:
 *
 * ```text
 * --- BTC-USD Market Data ---
 * Current Price: $97234.56 USD
 * Day Change: 1113.69 (1.16%)
 * Week Change: 3024.23 (3.21%)
 * Month Change: 3805.36 (4.07%)
 * 24h Range: $95640.27 - $97620.91
 * Year Change: 4.07%
 * Volatility Context: Day High $97510.22 / Low $95870.40
 * ```
 */
export function formatBtcSummary(tick: BtcTick): string {
  return [
    "--- BTC-USD Market Data ---",
    `Current Price: $${f(tick.VALUE)} USD`,
    `Day Change: ${f(tick.CURRENT_DAY_CHANGE)} (${f(tick.CURRENT_DAY_CHANGE_PERCENTAGE)}%)`,
    `Week Change: ${f(tick.CURRENT_WEEK_CHANGE)} (${f(tick.CURRENT_WEEK_CHANGE_PERCENTAGE)}%)`,
    `Month Change: ${f(tick.CURRENT_MONTH_CHANGE)} (${f(tick.CURRENT_MONTH_CHANGE_PERCENTAGE)}%)`,
    `24h Range: $${f(tick.MOVING_24_HOUR_LOW)} - $${f(tick.MOVING_24_HOUR_HIGH)}`,
    `Year Change: ${f(tick.CURRENT_YEAR_CHANGE_PERCENTAGE)}%`,
    `Volatility Context: Day High $${f(tick.CURRENT_DAY_HIGH)} / Low $${f(tick.CURRENT_DAY_LOW)}`,
  ].join("\n");
}
