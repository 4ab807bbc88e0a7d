import type { EChartsOption } from "echarts";
import type { CumulativeReturnColumn } from "../table/derived-columns.js";
import type { PriceRow, PriceTable } from "../table/price-table.js";
import { type ChartRange, chartTitle, chartTitleOption, roundTo } from "./chart-title.js";

/** The cumulative-returns figure's title, shared by the chart and its page. */
export function returnsChartTitle(table: PriceTable, range: ChartRange): string {
  return chartTitle(`${table.symbol} cumulative returns`, table, range);
}

/**
 * The cumulative-returns figure as an ECharts option: `Cumulative_Return` in percent as a
 * line over the dates, from 0 % on the first day. Plain JSON (no functions), so it can be embedded in a page.
 */
export function returnsChartOption(
  table: PriceTable<PriceRow & CumulativeReturnColumn>,
  range: ChartRange,
): EChartsOption {
  return {
    animation: false,
    backgroundColor: "#ffffff",
    title: chartTitleOption(returnsChartTitle(table, range)),
    tooltip: { trigger: "axis" },
    grid: { left: 80, right: 40, top: 80, bottom: 80 },
    xAxis: { type: "category", data: table.rows.map((row) => row.Date), boundaryGap: false },
    yAxis: { type: "value", name: "Cumulative return (%)", axisLabel: { formatter: "{value}%" } },
    dataZoom: [
      { type: "inside", xAxisIndex: 0 },
      { type: "slider", xAxisIndex: 0, bottom: 15, height: 28 },
    ],
    series: [
      {
        name: "Cumulative return (%)",
        type: "line",
        // The first day has no return yet, but it is where the curve starts: at 0 %.
        data: table.rows.map((row, index) =>
          row.Cumulative_Return === null
            ? index === 0
              ? 0
              : null
            : roundTo(row.Cumulative_Return * 100, 4),
        ),
        showSymbol: false,
        lineStyle: { width: 2, color: "#1f77b4" },
        itemStyle: { color: "#1f77b4" },
      },
    ],
  };
}
