import type { EChartsOption } from "echarts";
import type { MovingAverageColumn } from "../table/derived-columns.js";
import type { PriceRow, PriceTable } from "../table/price-table.js";
import { type ChartRange, chartTitle, chartTitleOption, roundTo } from "./chart-title.js";

const rising = "#26a69a";
const falling = "#ef5350";

/** The candlestick figure's title, shared by the chart and its page. */
export function candlestickChartTitle(table: PriceTable, range: ChartRange): string {
  return chartTitle(`${table.symbol} price and volume`, table, range);
}

/**
 * The price-and-volume figure as an ECharts option: candlesticks in the upper panel (about 70%
 * of the plot height), with the MA20 line once there are 20 bars to average, and volume bars,
 * coloured by the day's direction, on their own labelled axis in the lower one, whose top
 * leaves at least a tenth of the tallest bar's height free. Plain JSON
 * (no functions), so it can be embedded in a page.
 */
export function candlestickChartOption(
  table: PriceTable<PriceRow & MovingAverageColumn<20>>,
  range: ChartRange,
): EChartsOption {
  const dates = table.rows.map((row) => row.Date);
  const zoomAxes = [0, 1];
  // Fewer than 20 bars give no average at all: an empty line and its legend entry would only
  // suggest one is drawn.
  const hasAverage = table.rows.some((row) => row.MA20 !== null);
  const average = {
    name: "MA20",
    type: "line" as const,
    xAxisIndex: 0,
    yAxisIndex: 0,
    data: table.rows.map((row) => (row.MA20 === null ? null : roundTo(row.MA20, 4))),
    showSymbol: false,
    lineStyle: { width: 1.5, color: "#ff9800" },
    itemStyle: { color: "#ff9800" },
  };
  return {
    animation: false,
    backgroundColor: "#ffffff",
    title: chartTitleOption(candlestickChartTitle(table, range)),
    legend: { top: 72, data: [table.symbol, ...(hasAverage ? ["MA20"] : []), "Volume"] },
    tooltip: { trigger: "axis", axisPointer: { type: "cross" } },
    axisPointer: { link: [{ xAxisIndex: "all" }] },
    grid: [
      { left: 100, right: 40, top: 110, height: 400 },
      { left: 100, right: 40, top: 535, height: 185 },
    ],
    xAxis: [
      {
        type: "category",
        gridIndex: 0,
        data: dates,
        boundaryGap: true,
        axisLabel: { show: false },
      },
      { type: "category", gridIndex: 1, data: dates, boundaryGap: true },
    ],
    yAxis: [
      { type: "value", gridIndex: 0, scale: true, name: `Price (${table.currency})` },
      {
        type: "value",
        gridIndex: 1,
        splitNumber: 2,
        // Room above the tallest bar before the axis rounds its top up to a round figure:
        // without it a volume just under that figure fills the panel to its top edge. A gap
        // rather than a fixed max, so the axis still fits the bars of a zoomed-in window.
        boundaryGap: [0, "10%"],
        name: "Volume",
        nameLocation: "middle",
        nameGap: 70,
      },
    ],
    dataZoom: [
      { type: "inside", xAxisIndex: zoomAxes },
      { type: "slider", xAxisIndex: zoomAxes, top: 755, height: 28 },
    ],
    series: [
      {
        name: table.symbol,
        type: "candlestick",
        xAxisIndex: 0,
        yAxisIndex: 0,
        // ECharts orders a candle as [open, close, low, high], not OHLC.
        data: table.rows.map((row) => [row.Open, row.Close, row.Low, row.High]),
        itemStyle: { color: rising, color0: falling, borderColor: rising, borderColor0: falling },
      },
      ...(hasAverage ? [average] : []),
      {
        name: "Volume",
        type: "bar",
        xAxisIndex: 1,
        yAxisIndex: 1,
        itemStyle: { color: "#90a4ae" },
        data: table.rows.map((row) => ({
          value: row.Volume,
          itemStyle: { color: row.Close >= row.Open ? rising : falling },
        })),
      },
    ],
  };
}
