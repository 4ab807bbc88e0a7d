import type { PriceRow } from "../table/price-table.js";
import type { VciPlan } from "./vci-request.js";

/** One bar of a gap-chart answer, numbers parsed. */
export interface VciBar {
  /** Bar start, unix seconds. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Bars read from an answer, or why the answer is unusable. */
export type VciReadResult = { ok: true; bars: VciBar[] } | { ok: false; reason: string };

const vietnamOffsetSeconds = 7 * 3600;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads the bars of `vciSymbol` from a gap-chart answer: a list with one entry of parallel
 * arrays (`t`, `o`, `h`, `l`, `c`, `v`) per symbol, times as numbers or numeric strings. An
 * empty list (VCI's answer for an unknown symbol) gives no bars; bars with a missing price are
 * skipped.
 */
export function readVciBars(body: unknown, vciSymbol: string): VciReadResult {
  if (!Array.isArray(body)) {
    return { ok: false, reason: "unexpected answer from VCI: expected a list of price series" };
  }
  const entry =
    body.find((item) => isRecord(item) && item.symbol === vciSymbol) ??
    (body.length === 1 ? body[0] : undefined);
  if (entry === undefined) return { ok: true, bars: [] };
  if (!isRecord(entry)) {
    return { ok: false, reason: "unexpected answer from VCI: a price series is not an object" };
  }
  const columns = ["t", "o", "h", "l", "c"].map((key) => entry[key]);
  const [times, opens, highs, lows, closes] = columns;
  if (!columns.every(Array.isArray) || !Array.isArray(times)) {
    return {
      ok: false,
      reason: "unexpected answer from VCI: the series lacks its t/o/h/l/c arrays",
    };
  }
  const volumes = Array.isArray(entry.v) ? entry.v : [];
  const at = (column: unknown, index: number) => Number((column as unknown[])[index]);
  const bars: VciBar[] = [];
  for (let index = 0; index < times.length; index++) {
    const bar = {
      time: at(times, index),
      open: at(opens, index),
      high: at(highs, index),
      low: at(lows, index),
      close: at(closes, index),
      volume: Number(volumes[index] ?? 0) || 0,
    };
    const priced = [bar.time, bar.open, bar.high, bar.low, bar.close].every(Number.isFinite);
    if (priced) bars.push(bar);
  }
  return { ok: true, bars: bars.sort((a, b) => a.time - b.time) };
}

/** The Vietnamese calendar date (UTC+7) a bar belongs to, `YYYY-MM-DD`. */
export function vietnamDate(time: number): string {
  return new Date((time + vietnamOffsetSeconds) * 1000).toISOString().slice(0, 10);
}

function groupKey(bar: VciBar, group: NonNullable<VciPlan["group"]>): string {
  if (group === "month") return vietnamDate(bar.time).slice(0, 7);
  if (group === "week") {
    const date = new Date(`${vietnamDate(bar.time)}T00:00:00Z`);
    const monday = date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000;
    return new Date(monday).toISOString().slice(0, 10);
  }
  return String(Math.floor(bar.time / (group.minutes * 60)));
}

/** Merges consecutive bars into longer ones (minutes, weeks or months), dated by their first bar. */
export function groupVciBars(bars: VciBar[], group: VciPlan["group"]): VciBar[] {
  if (group === undefined) return bars;
  const groups = new Map<string, VciBar[]>();
  for (const bar of bars) {
    const key = groupKey(bar, group);
    groups.set(key, [...(groups.get(key) ?? []), bar]);
  }
  return [...groups.values()].map((members) => {
    const first = members[0] as VciBar;
    return {
      time: first.time,
      open: first.open,
      high: Math.max(...members.map((bar) => bar.high)),
      low: Math.min(...members.map((bar) => bar.low)),
      close: (members.at(-1) as VciBar).close,
      volume: members.reduce((sum, bar) => sum + bar.volume, 0),
    };
  });
}

/** How bars become price-table rows. */
export interface RowOptions {
  /** VCI's stock prices are in VND; divided by 1000 they read as quoted, in thousands. */
  divisor: number;
  intraday: boolean;
}

const twoDecimals = (value: number) => Math.round(value * 100) / 100;

/** Price-table rows of the bars: dated by Vietnamese date (intraday: ISO time), two decimals. */
export function toPriceRows(bars: VciBar[], options: RowOptions): PriceRow[] {
  return bars.map((bar) => ({
    Date: options.intraday ? new Date(bar.time * 1000).toISOString() : vietnamDate(bar.time),
    Open: twoDecimals(bar.open / options.divisor),
    High: twoDecimals(bar.high / options.divisor),
    Low: twoDecimals(bar.low / options.divisor),
    Close: twoDecimals(bar.close / options.divisor),
    Volume: bar.volume,
  }));
}
