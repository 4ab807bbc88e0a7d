/** Pixel size of a rendered chart; the HTML page uses the height and at most the width. */
export interface ChartSize {
  width: number;
  height: number;
}

/** The candlestick figure's size; the spec fixes its height at 800. */
export const candlestickChartSize: ChartSize = Object.freeze({ width: 1200, height: 800 });

/** The cumulative-returns figure's size; the spec fixes its height at 500. */
export const returnsChartSize: ChartSize = Object.freeze({ width: 1200, height: 500 });
