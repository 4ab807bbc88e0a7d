import { type AnyPrimaryFunction, getToolSpec, primaryFunction } from "@framework/core";
import { plot_returns, visualize_stock_data } from "@framework/tools-finance";
import { search_api } from "@framework/tools-websearch";

/** The same tool, marked `needsApproval`: an agent asks before each call. */
export function askingFirst(tool: AnyPrimaryFunction): AnyPrimaryFunction {
  const { execute, ...meta } = getToolSpec(tool);
  return primaryFunction({ ...meta, needsApproval: true }, execute);
}

/**
 * The crew's tools that ask before they run. The others only read market data; these act
 * beyond that: `search_api` sends the trader's words to Tavily, a third party, and spends its
 * paid credits, and `visualize_stock_data` and `plot_returns` write files under `./charts`.
 */
export const crewToolsAskingFirst: readonly AnyPrimaryFunction[] = [
  search_api,
  visualize_stock_data,
  plot_returns,
].map(askingFirst);

/**
 * What the offline demo says instead of asking: every call it makes goes to a local fake, so
 * nothing leaves the machine or costs anything, and its tools that ask first run unasked.
 */
export const offlineApprovalNote =
  "offline: web search and charts run without asking, since every call goes to a local fake (a real run asks first)";
