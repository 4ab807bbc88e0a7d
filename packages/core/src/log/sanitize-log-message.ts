/** The most a single logged value takes, in UTF-8 bytes. */
export const DEFAULT_MAX_LOG_VALUE_BYTES = 2048;

// C0 and C1 controls, DEL, and the two separators some viewers treat as line breaks.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const controlPattern = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const namedEscapes: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeCharacter(character: string): string {
  if (!controlPattern.test(character)) return character;
  return namedEscapes[character] ?? `\\u${character.codePointAt(0)!.toString(16).padStart(4, "0")}`;
}

/**
 * `message` made safe for a log: control characters escaped (`\n` becomes `\\n`), so a value
 * such as a stock symbol cannot forge log lines and one record stays one line, and the text
 * capped at `maxBytes` UTF-8 bytes, ending with `… (N more bytes)` when cut (N counts the
 * bytes of `message` left out). Characters are never cut in half.
 */
export function sanitizeLogMessage(
  message: string,
  maxBytes: number = DEFAULT_MAX_LOG_VALUE_BYTES,
): string {
  if (!controlPattern.test(message) && Buffer.byteLength(message) <= maxBytes) return message;
  let kept = "";
  let keptBytes = 0;
  let consumed = 0;
  for (const character of message) {
    const piece = escapeCharacter(character);
    const size = Buffer.byteLength(piece);
    if (keptBytes + size > maxBytes) break;
    kept += piece;
    keptBytes += size;
    consumed += character.length;
  }
  if (consumed >= message.length) return kept;
  const omitted = Buffer.byteLength(message) - Buffer.byteLength(message.slice(0, consumed));
  return `${kept}… (${omitted} more bytes)`;
}
