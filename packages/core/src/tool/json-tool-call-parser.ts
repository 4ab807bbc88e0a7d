import type { ToolCall } from "./tool-call.js";

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

function toToolCalls(value: unknown): ToolCall[] {
  if (Array.isArray(value)) return value.flatMap(toToolCalls);
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.tool_calls)) return record.tool_calls.flatMap(toToolCalls);
  const fn = record.function;
  if (fn !== null && typeof fn === "object" && !Array.isArray(fn)) {
    return toToolCalls({ ...(fn as Record<string, unknown>), tool_type: record.tool_type });
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
  const attempts = [text, ...fencedBlocks(text), ...balancedSpans(text)];
  for (const attempt of attempts) {
    const trimmed = attempt.trim();
    if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) continue;
    try {
      yield JSON.parse(trimmed);
    } catch {
      // Not JSON on its own; a later, narrower candidate may be.
    }
  }
}

function fencedBlocks(text: string): string[] {
  return [...text.matchAll(/```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/g)].map((match) => match[1] ?? "");
}

/**
 * Spans from an opening `{` or `[` to its matching close, skipping brackets inside JSON
 * strings. Each outermost span is returned once.
 */
function balancedSpans(text: string): string[] {
  const spans: string[] = [];
  let start = -1;
  const stack: string[] = [];
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
    if (char === '"' && stack.length > 0) inString = true;
    else if (char === "{" || char === "[") {
      if (stack.length === 0) start = index;
      stack.push(char === "{" ? "}" : "]");
    } else if ((char === "}" || char === "]") && stack.length > 0) {
      if (stack.pop() !== char) {
        stack.length = 0;
        continue;
      }
      if (stack.length === 0) spans.push(text.slice(start, index + 1));
    }
  }
  return spans;
}
