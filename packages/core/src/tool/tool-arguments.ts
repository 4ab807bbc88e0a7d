import { ToolArgumentsError } from "../error/tool-arguments-error.js";

const maxDecodeDepth = 3;

/**
 * Turns what a model sent as a tool's arguments into an argument object. Accepts an object,
 * JSON text of an object (also when encoded more than once, which some models do), and
 * nothing at all (no arguments). Anything else, notably a plain string, is rejected with a
 * {@link ToolArgumentsError} whose message tells the model what to send instead.
 */
export function normalizeToolArguments(raw: unknown, toolName: string): Record<string, unknown> {
  let value = raw;
  for (let depth = 0; typeof value === "string" && depth < maxDecodeDepth; depth++) {
    const text = value.trim();
    if (text === "") return {};
    try {
      value = JSON.parse(text);
    } catch {
      throw new ToolArgumentsError({
        toolName,
        issues: [
          {
            path: "(arguments)",
            message: `expected a JSON object of named arguments, got a plain string: ${JSON.stringify(text.slice(0, 200))}`,
          },
        ],
      });
    }
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ToolArgumentsError({
      toolName,
      issues: [
        {
          path: "(arguments)",
          message: `expected a JSON object of named arguments, got ${Array.isArray(value) ? "an array" : typeof value}`,
        },
      ],
    });
  }
  return value as Record<string, unknown>;
}
