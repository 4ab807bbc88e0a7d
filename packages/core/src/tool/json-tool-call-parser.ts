import type { ToolCall } from "./tool-call.js";

// A call sits at most a few wrappers deep (a list, a `tool_calls` list, a `function` object);
// deeper input is not a call, and following it would exhaust the stack on hostile text.
const maxWrapperDepth = 8;

/**
 * Finds the tool calls a model wrote as text in JSON mode: the specification's object
 * `{ "tool_name", "tool_type", "module_path", "arguments" }`, alone or in a list, possibly in
 * code fences and surrounded by prose. Common variants are accepted too (`name` for
 * `tool_name`, `parameters` or `args` for `arguments`, a `tool_calls` wrapper). Never throws:
 * text without a recognisable call yields an empty list, which ends the loop with that text
 * as the answer.
 */
export function parseJsonToolCalls(text: string): ToolCall[] {
  for (const candidate of jsonCandidates(text)) {
    const calls = toToolCalls(candidate);
    if (calls.length > 0) return calls;
  }
  return [];
}

function toToolCalls(value: unknown, depth = 0): ToolCall[] {
  if (depth > maxWrapperDepth) return [];
  const inner = (item: unknown) => toToolCalls(item, depth + 1);
  if (Array.isArray(value)) return value.flatMap(inner);
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.tool_calls)) return record.tool_calls.flatMap(inner);
  const fn = record.function;
  if (fn !== null && typeof fn === "object" && !Array.isArray(fn)) {
    return inner({ ...(fn as Record<string, unknown>), tool_type: record.tool_type });
  }
  const name = record.tool_name ?? record.name;
  if (typeof name !== "string" || name.trim() === "") return [];
  const call: ToolCall = {
    tool_name: name.trim(),
    arguments: record.arguments ?? record.parameters ?? record.args ?? {},
  };
  if (record.tool_type === "module" || record.tool_type === "function") {
    call.tool_type = record.tool_type;
  }
  if (typeof record.module_path === "string") call.module_path = record.module_path;
  return [call];
}

/** JSON values found in `text`: the whole text, fenced blocks, then balanced spans. */
function* jsonCandidates(text: string): Generator<unknown> {
  for (const attempt of candidateTexts(text)) {
    const trimmed = attempt.trim();
    if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) continue;
    try {
      yield JSON.parse(trimmed);
    } catch {
      // Not JSON on its own; a later, narrower candidate may be.
    }
  }
}

/** Scans for the narrower candidates only when the wider ones held no tool call. */
function* candidateTexts(text: string): Generator<string> {
  yield text;
  yield* fencedBlocks(text);
  yield* balancedSpans(text);
}

function fencedBlocks(text: string): string[] {
  return [...text.matchAll(/```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/g)].map((match) => match[1] ?? "");
}

/**
 * The largest balanced spans of `text`: from an opening `{` or `[` to its matching close,
 * skipping brackets inside JSON strings, and not inside another balanced span. An opener that
 * is never closed (prose such as "step [1 of") or is closed by the wrong bracket does not hide
 * the spans after it. Linear in the length of the text.
 */
function balancedSpans(text: string): string[] {
  const openers: Array<{ index: number; close: string }> = [];
  const spans: Array<{ start: number; end: number }> = [];
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"' && openers.length > 0) inString = true;
    else if (char === "{" || char === "[") {
      openers.push({ index, close: char === "{" ? "}" : "]" });
    } else if ((char === "}" || char === "]") && openers.length > 0) {
      const opener = openers.pop();
      if (opener === undefined || opener.close !== char) {
        openers.length = 0;
        continue;
      }
      // Spans closed since this opener lie inside the one it now closes.
      while ((spans.at(-1)?.start ?? -1) > opener.index) spans.pop();
      spans.push({ start: opener.index, end: index + 1 });
    }
  }
  return spans.map(({ start, end }) => text.slice(start, end));
}
