/**
 * The final report of a run, in the spec's format: `# I. Planning`, a newline, the sections
 * joined by newlines, a blank line, `# II. Results`, a newline, then `## ` and the chapters
 * joined by a blank line and `## `.
 *
 * @example
 * formatReport(["1. Overview", "btc price"], ["1. Overview \n Bitcoin rose."]);
 * // "# I. Planning\n1. Overview\nbtc price\n\n# II. Results\n## 1. Overview \n Bitcoin rose."
 */
export function formatReport(sections: readonly string[], chapters: readonly string[]): string {
  return `# I. Planning\n${sections.join("\n")}\n\n# II. Results\n## ${chapters.join("\n\n## ")}`;
}
