import type { PriceRow, PriceTable } from "./price-table.js";

/** A row of the moving-average column `MA<window>`; `null` until `window` rows are seen. */
export type MovingAverageColumn<Window extends number> = Record<`MA${Window}`, number | null>;

/** The `Daily_Return` column: fractional change of `Close` from the previous row. */
export interface DailyReturnColumn {
  /** `Close / previous Close - 1`; `null` on the first row (pandas `pct_change`). */
  Daily_Return: number | null;
}

/** The `Cumulative_Return` column, as a fraction (0.25 is +25%). */
export interface CumulativeReturnColumn {
  /** Product of `(1 + Daily_Return)` so far, minus 1; `null` where `Daily_Return` is. */
  Cumulative_Return: number | null;
}

/**
 * Adds `MA<window>` (default `MA20`): the mean of `Close` over the last `window` rows,
 * `null` for the first `window - 1` rows, as pandas `rolling(window).mean()` gives.
 */
export function withMovingAverage<Row extends PriceRow, Window extends number = 20>(
  table: PriceTable<Row>,
  window: Window = 20 as Window,
): PriceTable<Row & MovingAverageColumn<Window>> {
  if (!Number.isInteger(window) || window < 1) {
    throw new RangeError(`moving-average window must be a positive integer, got ${window}`);
  }
  const column = `MA${window}` as const;
  const rows = table.rows.map((row, index) => {
    if (index < window - 1) return { ...row, [column]: null };
    const span = table.rows.slice(index - window + 1, index + 1);
    const mean = span.reduce((sum, r) => sum + r.Close, 0) / window;
    return { ...row, [column]: mean };
  }) as Array<Row & MovingAverageColumn<Window>>;
  return { ...table, rows };
}

/**
 * Adds `Daily_Return`: the percentage change of `Close` as a fraction (pandas
 * `pct_change()`), `null` on the first row and after a zero close.
 */
export function withDailyReturns<Row extends PriceRow>(
  table: PriceTable<Row>,
): PriceTable<Row & DailyReturnColumn> {
  const rows = table.rows.map((row, index) => {
    const previous = table.rows[index - 1]?.Close;
    const Daily_Return = previous ? row.Close / previous - 1 : null;
    return { ...row, Daily_Return };
  });
  return { ...table, rows };
}

/**
 * Adds `Cumulative_Return`: `(1 + Daily_Return)` multiplied up row by row, minus 1. Like
 * pandas `cumprod()`, a `null` return stays `null` and is skipped by the product.
 */
export function withCumulativeReturns<Row extends PriceRow & DailyReturnColumn>(
  table: PriceTable<Row>,
): PriceTable<Row & CumulativeReturnColumn> {
  let growth = 1;
  const rows = table.rows.map((row) => {
    if (row.Daily_Return === null) return { ...row, Cumulative_Return: null };
    growth *= 1 + row.Daily_Return;
    return { ...row, Cumulative_Return: growth - 1 };
  });
  return { ...table, rows };
}
