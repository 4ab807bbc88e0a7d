function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * How a chart answer's JSON body reads before yahoo-finance2 sees it:
 * - `empty`: a known symbol without data in the range. Yahoo answers it as a result whose
 *   `meta` is present but which has no `timestamp` (or an empty one), or as a result whose
 *   `meta` is null next to a `chart.error`; yahoo-finance2 rejects the latter two shapes;
 * - `chart`: Yahoo's chart envelope, data or `chart.error`, which yahoo-finance2 reads;
 * - `other`: anything else, such as `{ finance: { error } }` from Yahoo's gateway.
 */
export type YahooAnswerKind = "empty" | "chart" | "other";

/** Sorts a parsed chart answer into a {@link YahooAnswerKind}. */
export function classifyYahooAnswer(body: unknown): YahooAnswerKind {
  if (!isRecord(body) || !isRecord(body.chart)) return "other";
  const { result } = body.chart;
  if (!Array.isArray(result)) return "chart";
  const [first] = result;
  if (!isRecord(first) || first.meta === null || first.meta === undefined) return "empty";
  // A meta block that names no symbol is no answer Yahoo gives: yahoo-finance2 rejects it.
  if (!isRecord(first.meta) || typeof first.meta.symbol !== "string") return "chart";
  return Array.isArray(first.timestamp) && first.timestamp.length > 0 ? "chart" : "empty";
}

/**
 * Thrown by the Yahoo fetch for an `empty` answer, so that the tool reports the spec's
 * no-data line instead of a schema error. It never leaves this package.
 */
export class YahooEmptyAnswer extends Error {
  constructor() {
    super("Yahoo Finance has no data for this symbol in this range");
    this.name = "YahooEmptyAnswer";
  }
}
