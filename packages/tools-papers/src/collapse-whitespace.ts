/** Joins the lines of a feed text into one: runs of whitespace become one space, ends trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
