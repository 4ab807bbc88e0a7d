import type { PriceTable } from "../table/price-table.js";

/** The date range a chart was asked for, as the tool arguments gave it. */
export interface ChartRange {
  start_date: string;
  end_date: string;
}

/** A chart title: what is shown, for which range and interval. */
export function chartTitle(subject: string, table: PriceTable, range: ChartRange): string {
  return `${subject}, ${range.start_date} to ${range.end_date} (${table.interval})`;
}

/** Rounds for display and to keep embedded chart data small. */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}
