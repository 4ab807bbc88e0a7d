import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

/** The kinds of chart the stock tools draw, as they appear in file names. */
export type ChartKind = "candlestick" | "returns";

/** What a chart file is named after. */
export interface ChartFileName {
  symbol: string;
  kind: ChartKind;
  start_date: string;
  end_date: string;
  interval: string;
}

/** Where charts are written: `FRAMEWORK_CHARTS_DIR` read now, else `./charts`, made absolute. */
export function chartsDirectory(): string {
  return resolve(process.env.FRAMEWORK_CHARTS_DIR?.trim() || "charts");
}

/**
 * `<SYMBOL>_<kind>_<start>_<end>_<interval>`, with every character outside `A-Z a-z 0-9 . _ -`
 * replaced by `_` (so `^GSPC` gives `_GSPC_...`). The interval is part of the name so that a
 * weekly chart does not overwrite the daily one of the same range.
 */
export function chartFileStem(name: ChartFileName): string {
  const stem = [name.symbol, name.kind, name.start_date, name.end_date, name.interval].join("_");
  return stem.replace(/[^A-Za-z0-9._-]/g, "_");
}

/**
 * Writes a chart's page and image into `directory` (made absolute), else the charts
 * directory; returns their absolute paths.
 */
export async function writeChartFiles(
  name: ChartFileName,
  files: { html: string; png: Uint8Array },
  directory: string = chartsDirectory(),
): Promise<{ htmlPath: string; pngPath: string }> {
  const target = resolve(directory);
  await mkdir(target, { recursive: true });
  const stem = chartFileStem(name);
  const htmlPath = join(target, `${stem}.html`);
  const pngPath = join(target, `${stem}.png`);
  await Promise.all([writeFile(htmlPath, files.html), writeFile(pngPath, files.png)]);
  return { htmlPath, pngPath };
}
