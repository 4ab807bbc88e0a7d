import { createPlotReturnsTool } from "./chart/plot-returns.js";
import { createVisualizeStockDataTool } from "./chart/visualize-stock-data.js";
import { createFetchStockDataTool } from "./fetch/fetch-stock-data.js";
import { checkStockToolsOptions, type StockToolsOptions } from "./stock-tools-options.js";
import { createFetchStockDataVnTool } from "./vci/fetch-stock-data-vn.js";

/**
 * The stock tools `createStockTools` makes, by their tool names. A type alias, not an
 * interface, so that it is assignable to an agent's `tools` as a module object.
 */
export type StockTools = {
  /** `fetch_stock_data` on Yahoo Finance with the `yahoo` settings. */
  fetch_stock_data: ReturnType<typeof createFetchStockDataTool>;
  /** `visualize_stock_data` on Yahoo Finance, writing into the charts directory given. */
  visualize_stock_data: ReturnType<typeof createVisualizeStockDataTool>;
  /** `plot_returns` on Yahoo Finance, writing into the charts directory given. */
  plot_returns: ReturnType<typeof createPlotReturnsTool>;
  /**
   * `fetch_stock_data_vn(symbol, start_date, end_date, interval)` on VCI (Vietcap) with the
   * `vci` settings: the arguments, defaults and `PriceTable` of `fetch_stock_data`, stock
   * prices in thousands of VND (`currency: "VND (thousands)"`), indices in points. Not part of
   * the package's module tools: register it yourself (the advisory crew does so at runtime).
   */
  fetch_stock_data_vn: ReturnType<typeof createFetchStockDataVnTool>;
};

/**
 * Creates the stock tools with their own settings (Yahoo's and VCI's base URL, time limit and
 * `fetch`, and where charts are written), so a program serving several tenants configures
 * them without environment variables. Names, arguments, results and failure lines are those
 * of the exported tools; a setting left out is read from the environment at every call.
 * The returned object is a tool module too: `tools: [createStockTools(options)]`.
 *
 * @throws ConfigurationError when a `baseURL` is not a URL, a `timeoutMs` is not a positive
 *   number of milliseconds, or `chartsDirectory` is empty.
 *
 * @example
 * const { fetch_stock_data, fetch_stock_data_vn } = createStockTools({
 *   yahoo: { baseURL: "https://yahoo-proxy.internal", timeoutMs: 10_000 },
 *   chartsDirectory: `/srv/charts/${tenantId}`,
 * });
 */
export function createStockTools(options: StockToolsOptions = {}): StockTools {
  checkStockToolsOptions(options);
  // Copied, so changing the caller's object later leaves these tools as they were made.
  const yahoo = { ...options.yahoo };
  const vci = { ...options.vci };
  const charts = {
    yahoo,
    ...(options.chartsDirectory === undefined ? {} : { chartsDirectory: options.chartsDirectory }),
  };
  return {
    fetch_stock_data: createFetchStockDataTool(yahoo),
    visualize_stock_data: createVisualizeStockDataTool(charts),
    plot_returns: createPlotReturnsTool(charts),
    fetch_stock_data_vn: createFetchStockDataVnTool(vci),
  };
}
