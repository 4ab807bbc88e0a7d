/**
 * `text` cut after its first `max` words (whitespace-separated), an ellipsis marking the
 * cut; unchanged when it has no more words than that. Line breaks inside the kept part stay.
 *
 * @example
 * limitWords("one two three", 2); // "one two…"
 */
export function limitWords(text: string, max: number): string {
  let seen = 0;
  for (const word of text.matchAll(/\S+/g)) {
    seen += 1;
    if (seen === max + 1) return `${text.slice(0, word.index).trimEnd()}…`;
  }
  return text;
}
