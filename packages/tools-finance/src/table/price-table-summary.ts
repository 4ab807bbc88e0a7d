import type { PriceRow, PriceTable } from "./price-table.js";

/** Headline figures of a price table, for a compact description. */
export interface PriceTableSummary {
  rowCount: number;
  first: PriceRow;
  last: PriceRow;
  /** `last.Close / first.Close - 1`, a fraction. */
  periodReturn: number;
  minClose: { value: number; date: string };
  maxClose: { value: number; date: string };
  averageVolume: number;
}

/** Summary figures of `table`, or `undefined` when it has no rows. */
export function summarizePriceTable(table: PriceTable): PriceTableSummary | undefined {
  const [first] = table.rows;
  const last = table.rows.at(-1);
  if (!first || !last) return undefined;
  let min = first;
  let max = first;
  let volume = 0;
  for (const row of table.rows) {
    if (row.Close < min.Close) min = row;
    if (row.Close > max.Close) max = row;
    volume += row.Volume;
  }
  return {
    rowCount: table.rows.length,
    first,
    last,
    periodReturn: last.Close / first.Close - 1,
    minClose: { value: min.Close, date: min.Date },
    maxClose: { value: max.Close, date: max.Date },
    averageVolume: volume / table.rows.length,
  };
}

/** Formats a price with 2 decimals, or 4 below 1 where 2 would hide the movement. */
export function formatPrice(value: number): string {
  return value.toFixed(Math.abs(value) >= 1 ? 2 : 4);
}

/** Formats a fraction as a signed percentage, e.g. `+12.34%`. */
export function formatPercent(fraction: number): string {
  const percent = fraction * 100;
  return `${percent >= 0 ? "+" : ""}${percent.toFixed(2)}%`;
}

const edgeRows = 3;
const columns = ["Date", "Open", "High", "Low", "Close", "Volume"] as const;

/**
 * What a model sees of a price table: the first and last rows, the row count and summary
 * figures, and whether the last row is still in progress. A five-year daily table thus costs a few hundred tokens instead of tens of
 * thousands.
 */
export function priceTableToText(table: PriceTable | null): string {
  const summary = table && summarizePriceTable(table);
  if (!table || !summary) {
    return "null: no price table. The request failed or found no data; check the symbol (e.g. AAPL, ^GSPC), the dates (YYYY-MM-DD, end_date later than start_date) and the interval (e.g. 1d, 1wk, 1mo).";
  }
  const line = (row: PriceRow) =>
    [
      row.Date,
      formatPrice(row.Open),
      formatPrice(row.High),
      formatPrice(row.Low),
      formatPrice(row.Close),
      row.Volume.toFixed(0),
    ].join(" | ");
  const { rows } = table;
  const shown =
    rows.length <= edgeRows * 2 + 1
      ? rows.map(line)
      : [
          ...rows.slice(0, edgeRows).map(line),
          `... ${rows.length - edgeRows * 2} rows omitted ...`,
          ...rows.slice(-edgeRows).map(line),
        ];
  return [
    `${table.symbol} price table, interval ${table.interval}, prices in ${table.currency}: ${summary.rowCount} rows from ${summary.first.Date} to ${summary.last.Date}.`,
    columns.join(" | "),
    ...shown,
    ...(table.lastRowInProgress
      ? [
          `The last row (${summary.last.Date}) is still in progress: its interval has not closed, so its prices will change.`,
        ]
      : []),
    `Period return: ${formatPercent(summary.periodReturn)} (close ${formatPrice(summary.first.Close)} -> ${formatPrice(summary.last.Close)})`,
    `Lowest close: ${formatPrice(summary.minClose.value)} on ${summary.minClose.date}; highest close: ${formatPrice(summary.maxClose.value)} on ${summary.maxClose.date}`,
    `Average volume: ${summary.averageVolume.toFixed(0)}`,
  ].join("\n");
}
