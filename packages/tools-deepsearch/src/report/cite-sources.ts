/** One search result the writer may use: its text and the page it came from. */
export interface SourcedNote {
  content: string;
  url: string;
}

/** Notes labelled with their source numbers, and the report's sources including theirs. */
export interface CitedNotes {
  /** `[n] <content>`, where n is the note's URL's position in `sources`, from 1. */
  notes: string[];
  /** The report's sources so far: every URL a note was taken from, each once, in order. */
  sources: string[];
}

/**
 * Numbers each note by its source for the whole report: a URL already in `sources` keeps its
 * number, a new one is appended, and a note given twice in `notes` is kept once. The writer cites a note by that number ("[3]"), so a
 * citation points at the same entry of the report's source list whichever chapter, draft or
 * critique search it came from.
 *
 * @example
 * citeNotes(["https://a"], [{ content: "B rose.", url: "https://b" }]);
 * // { notes: ["[2] B rose."], sources: ["https://a", "https://b"] }
 */
export function citeNotes(sources: readonly string[], notes: readonly SourcedNote[]): CitedNotes {
  const all = [...sources];
  const given = new Set<string>();
  const labelled: string[] = [];
  for (const note of notes) {
    // Two queries often find the same page: the writer reads it once.
    const key = `${note.url}\n${note.content}`;
    if (given.has(key)) continue;
    given.add(key);
    let index = all.indexOf(note.url);
    if (index < 0) index = all.push(note.url) - 1;
    labelled.push(`[${index + 1}] ${note.content}`);
  }
  return { notes: labelled, sources: all };
}

/**
 * The report's closing list of sources: `# III. Sources`, then `<n>. <url>` per line, numbered
 * as the chapters cite them. Empty when no search result was used.
 */
export function formatSources(sources: readonly string[]): string {
  if (sources.length === 0) return "";
  return `# III. Sources\n${sources.map((url, index) => `${index + 1}. ${url || "(a result without a URL)"}`).join("\n")}`;
}
