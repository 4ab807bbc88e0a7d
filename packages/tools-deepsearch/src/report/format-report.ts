import { formatSources } from "./cite-sources.js";

/**
 * The final report of a run, in the spec's format: `# I. Planning`, a newline, the sections
 * joined by newlines, a blank line, `# II. Results`, a newline, then `## ` and the chapters
 * joined by a blank line and `## `. With `sources` (the URLs the chapters cite as `[n]`), it
 * ends with a blank line and `# III. Sources`, one `<n>. <url>` per line.
 *
 * @example
 * formatReport(["1. Overview", "btc price"], ["1. Overview \n Bitcoin rose."]);
 * // "# I. Planning\n1. Overview\nbtc price\n\n# II. Results\n## 1. Overview \n Bitcoin rose."
 */
export function formatReport(
  sections: readonly string[],
  chapters: readonly string[],
  sources: readonly string[] = [],
): string {
  const report = `# I. Planning\n${sections.join("\n")}\n\n# II. Results\n## ${chapters.join("\n\n## ")}`;
  const list = formatSources(sources);
  return list ? `${report}\n\n${list}` : report;
}
