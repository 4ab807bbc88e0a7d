// "Digits, a dot and a space", as the spec defines a numbered block or line.
const numbered = /^\d+\. /;
const blankLine = /\n[ \t]*\n/;
// Models often bullet the query lines despite the prompt; the bullet is not part of the query.
const bullet = /^[-*•]\s+/;

/** A chapter outline split into its parts. */
export interface ChapterOutline {
  /** The first line, number included, e.g. `"1. Market overview"`. */
  title: string;
  /** Every further non-empty line, as a web-search query. */
  queries: string[];
}

/**
 * The chapter outlines of a planner reply: the reply is split on blank lines and only the
 * blocks that begin with digits, a dot and a space are kept (trimmed), in order. Preambles,
 * closing remarks and blocks numbered any other way (`**1. …**`, `1) …`) are dropped.
 *
 * @example
 * parseOutline("Sure!\n\n1. Overview\nbtc price\n\n2. Outlook\nbtc forecast");
 * // ["1. Overview\nbtc price", "2. Outlook\nbtc forecast"]
 */
export function parseOutline(reply: string): string[] {
  return reply
    .replace(/\r\n?/g, "\n")
    .split(blankLine)
    .map((block) => block.trim())
    .filter((block) => numbered.test(block));
}

/**
 * Splits one chapter outline: its first line is the title, every further line a query
 * (trimmed, a leading list bullet removed, empty lines skipped).
 *
 * @example
 * parseChapterOutline("1. Overview\n- btc price\nbtc ETF flows");
 * // { title: "1. Overview", queries: ["btc price", "btc ETF flows"] }
 */
export function parseChapterOutline(outline: string): ChapterOutline {
  const [first = "", ...rest] = outline.replace(/\r\n?/g, "\n").split("\n");
  return {
    title: first.trim(),
    queries: rest.map((line) => line.trim().replace(bullet, "")).filter((line) => line !== ""),
  };
}
