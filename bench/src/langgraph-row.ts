import { type PairedResult, pairedVerdict } from "./paired.js";
import { type BenchRow, times } from "./report.js";

/** One measured case paired with LangGraph.js, as {@link langGraphRow} reports it. */
export interface LangGraphRowOptions {
  readonly id: string;
  readonly title: string;
  readonly result: PairedResult;
  readonly unit: string;
  /**
   * `"time"` when less is better (the ratio reads LangGraph ÷ ours), `"rate"` when more is
   * (ours ÷ LangGraph); `result.ratio` is "how many times better ours is" either way.
   */
  readonly measure: "time" | "rate";
  /** The ratio the interval must clear, and how the table words it. */
  readonly target: { readonly bound: number; readonly text: string };
  /** Converts the medians into `unit` (default: as measured). */
  readonly scale?: (value: number) => number;
  readonly note?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The table row of a case paired with LangGraph.js: medians, ratio, interval and verdict. */
export function langGraphRow(options: LangGraphRowOptions): BenchRow {
  const { result, unit, scale = (value: number) => value } = options;
  const ratio = options.measure === "time" ? "LangGraph ÷ ours" : "ours ÷ LangGraph";
  return {
    id: options.id,
    title: options.title,
    ours: { value: scale(result.ours.median), unit },
    langGraph: { value: scale(result.peer.median), unit },
    ratio: `${ratio} ${times(result.ratio)}`,
    interval: result.interval,
    target: options.target.text,
    verdict: pairedVerdict(result, { atLeast: options.target.bound }),
    load: result.load,
    memory: result.memory,
    ...(options.note ? { note: options.note } : {}),
    details: { ...options.details, ...result },
  };
}
