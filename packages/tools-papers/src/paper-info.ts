import type { ArxivEntry } from "./arxiv-feed.js";
import { collapseWhitespace } from "./collapse-whitespace.js";

/** One paper as `paper_research` returns it. */
export interface PaperInfo {
  /** The arXiv id with version, e.g. `2210.03629v3`, or an old-style id like `hep-ex/0307015v1`. */
  paper_id: string;
  /** The title on one line. */
  title: string;
  /** Author names in the order arXiv lists them. */
  authors: string[];
  /** The abstract on one line. */
  summary: string;
  /** Date of the first version, `YYYY-MM-DD`. */
  published: string;
  /** Link to the PDF, ending `/pdf/<paper_id>`. */
  pdf_url: string;
}

function paperIdOf(entryId: string): string {
  const match = /\/abs\/(.+)$/.exec(entryId);
  return match?.[1] ?? entryId;
}

// The date is taken as written rather than converted: arXiv stamps it in its own offset, and
// converting to UTC or to this machine's zone could move it to another day.
function dateOf(timestamp: string): string {
  return /^\d{4}-\d{2}-\d{2}/.exec(timestamp)?.[0] ?? timestamp;
}

/** Turns a feed entry into the paper record the tool returns. */
export function toPaperInfo(entry: ArxivEntry): PaperInfo {
  const paperId = paperIdOf(entry.id);
  const pdfUrl = entry.pdfUrl?.endsWith(`/pdf/${paperId}`)
    ? entry.pdfUrl
    : `http://arxiv.org/pdf/${paperId}`;
  return {
    paper_id: paperId,
    title: collapseWhitespace(entry.title),
    authors: entry.authors,
    summary: collapseWhitespace(entry.summary),
    published: dateOf(entry.published),
    pdf_url: pdfUrl,
  };
}
