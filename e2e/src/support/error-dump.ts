import { inspect } from "node:util";

/**
 * Everything an error carries that could end up in a log, a report or a crash dump: its
 * inspection (stack, own properties, causes), and for it and each cause its name, message,
 * stack and JSON form (own enumerable properties). A secret absent from this text is absent
 * from the error.
 */
export function errorDump(error: unknown): string {
  const parts = [inspect(error, { depth: 10, showHidden: true })];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    if (current instanceof Error) parts.push(current.name, current.message, current.stack ?? "");
    try {
      parts.push(JSON.stringify(current) ?? "");
    } catch {
      parts.push(String(current));
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join("\n");
}
