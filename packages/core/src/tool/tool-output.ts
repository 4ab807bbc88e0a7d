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

// Beyond this depth a result is not data a model can use, and following it could exhaust the
// stack; the rest is replaced by a marker.
const maxDepth = 64;

/** Where {@link shorten} is and how much it may still produce. */
interface Walk {
  limits: ToolOutputLimits;
  /** Objects on the current path: only those count as cycles. */
  path: WeakSet<object>;
  /** Values still to render; past it, the text would be cut at `maxChars` anyway. */
  budget: number;
}

/**
 * Renders a tool result as the text the model sees. Strings pass as they are; other values
 * become JSON with long arrays and strings shortened structurally, and the whole text is
 * capped. Every cut leaves a visible marker saying how much was left out, so the model never
 * mistakes a shortened result for a complete one. Never throws: a part that cannot be read
 * (a throwing getter or `toJSON`, an invalid date) is rendered as a marker saying so.
 */
export function renderToolOutput(
  result: unknown,
  limits: ToolOutputLimits = defaultToolOutputLimits,
): string {
  if (typeof result === "string") return capText(result, limits.maxChars);
  if (result === undefined) return capText("null", limits.maxChars);
  const walk: Walk = { limits, path: new WeakSet(), budget: Math.max(limits.maxChars, 1) };
  const text = JSON.stringify(shorten(result, walk, 0)) ?? describeValue(result);
  return capText(text, limits.maxChars);
}

/** Cuts `text` to `maxChars`, appending a marker that states the original length. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n…[truncated: showing ${maxChars} of ${text.length} characters]`;
}

/** `String(value)`, for values JSON leaves out (functions, symbols), even without toString. */
function describeValue(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function shorten(value: unknown, walk: Walk, depth: number): unknown {
  walk.budget -= 1;
  if (walk.budget < 0) return "…[left out: output limit reached]";
  const { limits } = walk;
  if (typeof value === "string") {
    return value.length > limits.maxStringChars
      ? `${value.slice(0, limits.maxStringChars)}…[truncated: ${value.length - limits.maxStringChars} more characters]`
      : value;
  }
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  if (depth >= maxDepth) return `…[left out: nested deeper than ${maxDepth} levels]`;
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  }
  // Only the current path counts as a cycle: an object shared by two branches is rendered twice.
  if (walk.path.has(value)) return "[circular]";
  walk.path.add(value);
  try {
    return shortenContainer(value, walk, depth + 1);
  } catch (error) {
    return `[unreadable: ${error instanceof Error ? error.message : describeValue(error)}]`;
  } finally {
    walk.path.delete(value);
  }
}

function shortenContainer(value: object, walk: Walk, depth: number): unknown {
  if (value instanceof Map) return shorten(Object.fromEntries(value), walk, depth);
  if (value instanceof Set) return shortenList([...value], walk, depth);
  if (Array.isArray(value)) return shortenList(value, walk, depth);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return shortenList(value as unknown as ArrayLike<unknown>, walk, depth);
  }
  const toJSON = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof toJSON === "function") return shorten(toJSON.call(value), walk, depth);
  const entries: Array<[string, unknown]> = [];
  for (const key of Object.keys(value)) {
    if (walk.budget < 0) break;
    entries.push([key, shorten((value as Record<string, unknown>)[key], walk, depth)]);
  }
  return Object.fromEntries(entries);
}

/** A list with at most `maxArrayItems` items: its head and tail around a marker. */
function shortenList(items: ArrayLike<unknown>, walk: Walk, depth: number): unknown[] {
  const { maxArrayItems } = walk.limits;
  const render = (from: number, to: number) => {
    const rendered: unknown[] = [];
    for (let index = from; index < to && walk.budget >= 0; index++) {
      rendered.push(shorten(items[index], walk, depth));
    }
    return rendered;
  };
  if (items.length <= maxArrayItems) return render(0, items.length);
  const head = Math.ceil(maxArrayItems * 0.75);
  const tail = maxArrayItems - head;
  return [
    ...render(0, head),
    `…[${items.length - head - tail} more items; ${items.length} in all]`,
    ...render(items.length - tail, items.length),
  ];
}
