import type { PriceTable } from "../table/price-table.js";

/** The date range a chart was asked for, as the tool arguments gave it. */
export interface ChartRange {
  start_date: string;
  /** Exclusive, as Yahoo Finance reads it: the last bar is at most the day before. */
  end_date: string;
}

/** The day before `date` (YYYY-MM-DD): the last day an exclusive `end_date` covers. */
export function inclusiveEndDate(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

/**
 * A chart title: what is shown, for which range and interval. The range ends on the last day
 * it covers (`end_date` is exclusive), so a year asked as 2024-01-01 to 2025-01-01 reads
 * "2024-01-01 to 2024-12-31".
 */
export function chartTitle(subject: string, table: PriceTable, range: ChartRange): string {
  return `${subject}, ${range.start_date} to ${inclusiveEndDate(range.end_date)} (${table.interval})`;
}

/** The variable whose text every chart shows under its title. */
export const chartSubtitleVariable = "FRAMEWORK_CHART_SUBTITLE";

/**
 * The subtitle every chart carries, from `FRAMEWORK_CHART_SUBTITLE` (read per chart): the
 * offline demo sets "sample data, not market prices" so its charts never pass for real ones.
 */
export function chartSubtitle(): string | undefined {
  return process.env[chartSubtitleVariable]?.trim() || undefined;
}

/** The option's `title`: the title, and the subtitle when one is set. */
export function chartTitleOption(text: string): { text: string; subtext?: string; left: string } {
  const subtext = chartSubtitle();
  return { text, ...(subtext === undefined ? {} : { subtext }), left: "center" };
}

/** Rounds for display and to keep embedded chart data small. */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}
