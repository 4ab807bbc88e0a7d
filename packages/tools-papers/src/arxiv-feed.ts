import { collapseWhitespace } from "./collapse-whitespace.js";
import { ArxivRequestError } from "./error/arxiv-request-error.js";
import { childElement, childElements, parseXml, textContent, type XmlElement } from "./xml-tree.js";

const atom = "http://www.w3.org/2005/Atom";
const openSearch = "http://a9.com/-/spec/opensearch/1.1/";

/** One `<entry>` of an arXiv feed, its texts as the feed wrote them. */
export interface ArxivEntry {
  /** The entry id, e.g. `http://arxiv.org/abs/2210.03629v3`. */
  id: string;
  title: string;
  summary: string;
  /** First-version timestamp, e.g. `2022-10-06T01:00:32Z`. */
  published: string;
  /** Author names in feed order. */
  authors: string[];
  /** The `href` of the entry's PDF link, when it has one. */
  pdfUrl: string | undefined;
}

/** What an arXiv Atom feed says: a page of results, or arXiv's explanation of a rejection. */
export type ArxivFeed =
  | {
      kind: "results";
      /** `opensearch:totalResults`: all matches, not just this page; absent if not given. */
      totalResults: number | undefined;
      entries: ArxivEntry[];
    }
  | { kind: "error"; message: string };

// arXiv reports a bad query as a one-entry feed whose entry points into /api/errors and is
// titled "Error"; the summary is the explanation.
function isErrorEntry(entry: ArxivEntry): boolean {
  return (
    /\/api\/errors(?:[#?]|$)/.test(entry.id) ||
    (collapseWhitespace(entry.title) === "Error" && !entry.id.includes("/abs/"))
  );
}

function readPdfUrl(entry: XmlElement): string | undefined {
  const links = childElements(entry, atom, "link");
  const pdf =
    links.find((link) => link.attributes.title === "pdf") ??
    links.find((link) => link.attributes.type === "application/pdf");
  return pdf?.attributes.href?.trim() || undefined;
}

function readEntry(entry: XmlElement): ArxivEntry {
  const text = (localName: string) => textContent(childElement(entry, atom, localName));
  return {
    id: text("id").trim(),
    title: text("title"),
    summary: text("summary"),
    published: text("published").trim(),
    authors: childElements(entry, atom, "author")
      .map((author) => collapseWhitespace(textContent(childElement(author, atom, "name"))))
      .filter((name) => name !== ""),
    pdfUrl: readPdfUrl(entry),
  };
}

function readCount(feed: XmlElement, localName: string): number | undefined {
  const value = textContent(childElement(feed, openSearch, localName)).trim();
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * Reads an arXiv API answer (an Atom 1.0 feed). Names are matched by namespace URI, so the
 * older layout (opensearch and arxiv namespaces declared on each element) and the newer one
 * (declared once on the root) read the same, whatever the prefixes. Throws
 * {@link ArxivRequestError} (`malformed-response`) when the text is not an Atom feed.
 */
export function parseArxivFeed(xml: string): ArxivFeed {
  const root = parseXml(xml);
  if (root.namespace !== atom || root.localName !== "feed") {
    const found = root.namespace ? `{${root.namespace}}${root.localName}` : root.localName;
    throw new ArxivRequestError({
      reason: "malformed-response",
      message: `arXiv sent a response that is not an Atom feed: its root element is <${found}>`,
    });
  }
  const entries = childElements(root, atom, "entry").map(readEntry);
  const errorEntry = entries.find(isErrorEntry);
  if (errorEntry) {
    return { kind: "error", message: collapseWhitespace(errorEntry.summary) };
  }
  return { kind: "results", totalResults: readCount(root, "totalResults"), entries };
}
