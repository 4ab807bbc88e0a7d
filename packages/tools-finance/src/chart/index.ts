export { candlestickChartOption } from "./candlestick-chart.js";
export {
  type ChartFileName,
  type ChartKind,
  chartFileStem,
  chartsDirectory,
} from "./chart-files.js";
export { type ChartSize, candlestickChartSize, returnsChartSize } from "./chart-size.js";
export type { ChartRange } from "./chart-title.js";
export { plot_returns, type ReturnsRow, returnsFigureToText } from "./plot-returns.js";
export { renderChartHtml, renderChartPng, renderChartSvg } from "./render-chart.js";
export { returnsChartOption } from "./returns-chart.js";
export type { StockFigure } from "./stock-figure.js";
export { candlestickFigureToText, visualize_stock_data } from "./visualize-stock-data.js";
