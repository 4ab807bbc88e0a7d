export { chartsDirectory } from "./chart-files.js";
export { plot_returns, type ReturnsRow } from "./plot-returns.js";
export type { StockFigure } from "./stock-figure.js";
export { visualize_stock_data } from "./visualize-stock-data.js";
