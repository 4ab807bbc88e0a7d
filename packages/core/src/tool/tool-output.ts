/** Limits applied when a tool result is turned into text for the model. */
export interface ToolOutputLimits {
  /** Longest text sent to the model for one result. */
  maxChars: number;
  /** Arrays longer than this keep their first and last items around a marker. */
  maxArrayItems: number;
  /** Strings inside objects longer than this are cut with a marker. */
  maxStringChars: number;
}

/** The limits used unless an agent sets its own. */
export const defaultToolOutputLimits: ToolOutputLimits = {
  maxChars: 20_000,
  maxArrayItems: 40,
  maxStringChars: 4_000,
};

/**
 * Renders a tool result as the text the model sees. Strings pass as they are; other values
 * become JSON with long arrays and strings shortened structurally, and the whole text is
 * capped. Every cut leaves a visible marker saying how much was left out, so the model never
 * mistakes a shortened result for a complete one.
 */
export function renderToolOutput(
  result: unknown,
  limits: ToolOutputLimits = defaultToolOutputLimits,
): string {
  const text =
    typeof result === "string"
      ? result
      : result === undefined
        ? "null"
        : (JSON.stringify(shorten(result, limits, new WeakSet())) ?? String(result));
  return capText(text, limits.maxChars);
}

/** Cuts `text` to `maxChars`, appending a marker that states the original length. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n…[truncated: showing ${maxChars} of ${text.length} characters]`;
}

function shorten(value: unknown, limits: ToolOutputLimits, seen: WeakSet<object>): unknown {
  if (typeof value === "string") {
    return value.length > limits.maxStringChars
      ? `${value.slice(0, limits.maxStringChars)}…[truncated: ${value.length - limits.maxStringChars} more characters]`
      : value;
  }
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  // Only the current path counts as a cycle: an object shared by two branches is rendered twice.
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  try {
    return shortenContainer(value, limits, seen);
  } finally {
    seen.delete(value);
  }
}

function shortenContainer(value: object, limits: ToolOutputLimits, seen: WeakSet<object>): unknown {
  if (value instanceof Map) return shorten(Object.fromEntries(value), limits, seen);
  if (value instanceof Set) return shorten([...value], limits, seen);
  if (Array.isArray(value)) {
    if (value.length <= limits.maxArrayItems)
      return value.map((item) => shorten(item, limits, seen));
    const head = Math.ceil(limits.maxArrayItems * 0.75);
    const tail = limits.maxArrayItems - head;
    return [
      ...value.slice(0, head).map((item) => shorten(item, limits, seen)),
      `…[${value.length - head - tail} more items; ${value.length} in all]`,
      ...value.slice(value.length - tail).map((item) => shorten(item, limits, seen)),
    ];
  }
  const toJSON = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof toJSON === "function") return shorten(toJSON.call(value), limits, seen);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, shorten(item, limits, seen)]),
  );
}
