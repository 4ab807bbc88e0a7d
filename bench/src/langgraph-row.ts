import { type PairedResult, ratioEstimate } from "./paired.js";
import { type MeasuredRow, measuredRow, times } from "./report.js";
import { type Target, target } from "./target.js";

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
  /** What the ratio must be at least, and how the table words it. */
  readonly target: { readonly atLeast: number; readonly text: string };
  /** Converts the medians into `unit` (default: as measured). */
  readonly scale?: (value: number) => number;
  readonly note?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The target of a paired row: its ratio's interval at or above `atLeast`. */
export function ratioTarget({ atLeast, text }: LangGraphRowOptions["target"]): Target {
  return target(text, "ratio", ">=", atLeast);
}

/** The table row of a case paired with LangGraph.js: medians, ratio, interval and verdict. */
export function langGraphRow(options: LangGraphRowOptions): MeasuredRow {
  const { result, unit, scale = (value: number) => value } = options;
  const ratio = options.measure === "time" ? "LangGraph ÷ ours" : "ours ÷ LangGraph";
  return measuredRow({
    id: options.id,
    title: options.title,
    ours: { value: scale(result.ours.median), unit },
    langGraph: { value: scale(result.peer.median), unit },
    ratio: `${ratio} ${times(result.ratio)}`,
    target: ratioTarget(options.target),
    metrics: { ratio: ratioEstimate(result) },
    load: result.load,
    memory: result.memory,
    ...(options.note ? { note: options.note } : {}),
    details: { ...options.details, ...result },
  });
}
