/**
 * `value` as JSON for a log line, or `fallback` when it cannot be serialised (nested too
 * deeply for the stack, a BigInt, a throwing `toJSON`). A log line must never turn a working
 * call into a failure.
 */
export function jsonForLog(value: unknown, fallback: string): string {
  try {
    return JSON.stringify(value) ?? fallback;
  } catch {
    return fallback;
  }
}
