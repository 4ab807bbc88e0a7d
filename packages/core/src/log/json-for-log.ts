/** What a log line shows in place of tool arguments that {@link jsonForLog} cannot serialise. */
export const unloggableArguments = "[arguments nested too deeply to log]";

/**
 * `value` as JSON for a log line, or `fallback` when it cannot be serialised (nested too
 * deeply for the stack, a BigInt, a throwing `toJSON`). A log line must never turn a working
 * call into a failure. A function `fallback` is only called when it is needed.
 */
export function jsonForLog(value: unknown, fallback: string | (() => string)): string {
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // Not serialisable: the fallback stands in.
  }
  return typeof fallback === "function" ? fallback() : fallback;
}
