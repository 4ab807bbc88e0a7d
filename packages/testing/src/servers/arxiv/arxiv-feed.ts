import { createHash } from "node:crypto";
import type { ArxivSamplePaper } from "./arxiv-sample-papers.js";

/**
 * The two layouts arXiv has served its Atom feed in. Both use the Atom default namespace.
 * - `legacy`: the long-standing export.arxiv.org output, as in arXiv's API manual: the
 *   opensearch and arxiv namespaces are declared again on every element that uses them,
 *   links are `http://`, the feed title reads `ArXiv Query: ...`, abstracts start with two
 *   spaces, and the error feed repeats the Atom namespace on its children.
 * - `current`: the newer output: opensearch and arxiv declared once on `<feed>`, `https://`
 *   links, elements in a different order, single-quoted XML declaration.
 * A reader must treat both the same.
 */
export type ArxivFeedForm = "legacy" | "current";

/** The query parameters a feed echoes in its title and self link, as the client sent them. */
export interface ArxivFeedQuery {
  search_query: string;
  id_list: string;
  start: string;
  max_results: string;
}

/** Options of {@link renderArxivFeed}. */
export interface RenderArxivFeedOptions {
  form?: ArxivFeedForm;
  query: ArxivFeedQuery;
  /** The papers of this page, in order. */
  papers: readonly ArxivSamplePaper[];
  /** `opensearch:totalResults`: every match, not just this page. */
  totalResults: number;
  /** `opensearch:startIndex`. */
  startIndex: number;
  /** `opensearch:itemsPerPage`: the page size asked for. */
  itemsPerPage: number;
}

/** Options of {@link renderArxivErrorFeed}. */
export interface RenderArxivErrorFeedOptions {
  form?: ArxivFeedForm;
  query: Pick<ArxivFeedQuery, "search_query" | "id_list">;
  /** The explanation arXiv puts in the error entry's `<summary>`. */
  message: string;
}

const atomNs = "http://www.w3.org/2005/Atom";
const openSearchNs = "http://a9.com/-/spec/opensearch/1.1/";
const arxivNs = "http://arxiv.org/schemas/atom";

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

// arXiv hard-wraps abstracts at about 80 columns.
function wrap(text: string, width = 78): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.join("\n");
}

function feedId(query: object): string {
  return createHash("sha1").update(JSON.stringify(query)).digest("base64").replace(/=+$/, "");
}

function legacyUpdated(): string {
  return `${new Date().toISOString().slice(0, 10)}T00:00:00-04:00`;
}

function currentUpdated(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

function queryText(query: ArxivFeedQuery): string {
  return (
    `search_query=${query.search_query}&id_list=${query.id_list}` +
    `&start=${query.start}&max_results=${query.max_results}`
  );
}

function legacyEntry(paper: ArxivSamplePaper): string {
  const arxiv = `xmlns:arxiv="${arxivNs}"`;
  const lines = [
    "  <entry>",
    `    <id>http://arxiv.org/abs/${paper.id}</id>`,
    `    <updated>${paper.updated}</updated>`,
    `    <published>${paper.published}</published>`,
    `    <title>${escapeXml(paper.title)}</title>`,
    `    <summary>  ${escapeXml(wrap(paper.summary))}\n</summary>`,
    ...paper.authors.map((author) =>
      author.affiliation === undefined
        ? `    <author>\n      <name>${escapeXml(author.name)}</name>\n    </author>`
        : `    <author>\n      <name>${escapeXml(author.name)}</name>\n` +
          `      <arxiv:affiliation ${arxiv}>${escapeXml(author.affiliation)}</arxiv:affiliation>\n` +
          "    </author>",
    ),
  ];
  if (paper.doi !== undefined) {
    lines.push(`    <arxiv:doi ${arxiv}>${escapeXml(paper.doi)}</arxiv:doi>`);
    lines.push(
      `    <link title="doi" href="http://dx.doi.org/${escapeXml(paper.doi)}" rel="related"/>`,
    );
  }
  if (paper.comment !== undefined) {
    lines.push(`    <arxiv:comment ${arxiv}>${escapeXml(paper.comment)}</arxiv:comment>`);
  }
  if (paper.journalRef !== undefined) {
    lines.push(
      `    <arxiv:journal_ref ${arxiv}>${escapeXml(paper.journalRef)}</arxiv:journal_ref>`,
    );
  }
  lines.push(
    `    <link href="http://arxiv.org/abs/${paper.id}" rel="alternate" type="text/html"/>`,
    `    <link title="pdf" href="http://arxiv.org/pdf/${paper.id}" rel="related" type="application/pdf"/>`,
    `    <arxiv:primary_category ${arxiv} term="${paper.primaryCategory}" scheme="${arxivNs}"/>`,
    ...paper.categories.map((term) => `    <category term="${term}" scheme="${arxivNs}"/>`),
    "  </entry>",
  );
  return lines.join("\n");
}

function currentEntry(paper: ArxivSamplePaper): string {
  const lines = [
    "  <entry>",
    `    <id>http://arxiv.org/abs/${paper.id}</id>`,
    `    <title>${escapeXml(paper.title)}</title>`,
    `    <updated>${paper.updated}</updated>`,
    `    <link href="https://arxiv.org/abs/${paper.id}" rel="alternate" type="text/html"/>`,
    `    <link href="https://arxiv.org/pdf/${paper.id}" rel="related" type="application/pdf" title="pdf"/>`,
  ];
  if (paper.doi !== undefined) {
    lines.push(
      `    <link href="https://doi.org/${escapeXml(paper.doi)}" rel="related" title="doi"/>`,
    );
  }
  lines.push(
    `    <summary>${escapeXml(wrap(paper.summary))}</summary>`,
    ...paper.categories.map((term) => `    <category term="${term}" scheme="${arxivNs}"/>`),
    `    <published>${paper.published}</published>`,
  );
  if (paper.comment !== undefined) {
    lines.push(`    <arxiv:comment>${escapeXml(paper.comment)}</arxiv:comment>`);
  }
  if (paper.journalRef !== undefined) {
    lines.push(`    <arxiv:journal_ref>${escapeXml(paper.journalRef)}</arxiv:journal_ref>`);
  }
  if (paper.doi !== undefined) {
    lines.push(`    <arxiv:doi>${escapeXml(paper.doi)}</arxiv:doi>`);
  }
  lines.push(
    `    <arxiv:primary_category term="${paper.primaryCategory}"/>`,
    ...paper.authors.map((author) =>
      author.affiliation === undefined
        ? `    <author>\n      <name>${escapeXml(author.name)}</name>\n    </author>`
        : `    <author>\n      <name>${escapeXml(author.name)}</name>\n` +
          `      <arxiv:affiliation>${escapeXml(author.affiliation)}</arxiv:affiliation>\n` +
          "    </author>",
    ),
    "  </entry>",
  );
  return lines.join("\n");
}

/** Renders a page of results as the Atom feed arXiv's `/api/query` answers with. */
export function renderArxivFeed(options: RenderArxivFeedOptions): string {
  const { query, totalResults, startIndex, itemsPerPage } = options;
  const id = feedId(query);
  if ((options.form ?? "legacy") === "legacy") {
    const openSearch = `xmlns:opensearch="${openSearchNs}"`;
    const selfLink = `http://arxiv.org/api/query?${encodeURIComponent(queryText(query))}`;
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<feed xmlns="${atomNs}">`,
      `  <link href="${escapeXml(selfLink)}" rel="self" type="application/atom+xml"/>`,
      `  <title type="html">ArXiv Query: ${escapeXml(queryText(query))}</title>`,
      `  <id>http://arxiv.org/api/${id}</id>`,
      `  <updated>${legacyUpdated()}</updated>`,
      `  <opensearch:totalResults ${openSearch}>${totalResults}</opensearch:totalResults>`,
      `  <opensearch:startIndex ${openSearch}>${startIndex}</opensearch:startIndex>`,
      `  <opensearch:itemsPerPage ${openSearch}>${itemsPerPage}</opensearch:itemsPerPage>`,
      ...options.papers.map(legacyEntry),
      "</feed>",
      "",
    ].join("\n");
  }
  const selfLink =
    `https://arxiv.org/api/query?search_query=${encodeURIComponent(query.search_query)}` +
    `&start=${query.start}&max_results=${query.max_results}` +
    `&id_list=${encodeURIComponent(query.id_list)}`;
  return [
    "<?xml version='1.0' encoding='UTF-8'?>",
    `<feed xmlns="${atomNs}" xmlns:opensearch="${openSearchNs}" xmlns:arxiv="${arxivNs}">`,
    `  <id>https://arxiv.org/api/${id}</id>`,
    `  <title>arXiv Query: ${escapeXml(queryText(query))}</title>`,
    `  <updated>${currentUpdated()}</updated>`,
    `  <link href="${escapeXml(selfLink)}" type="application/atom+xml"/>`,
    `  <opensearch:itemsPerPage>${itemsPerPage}</opensearch:itemsPerPage>`,
    `  <opensearch:totalResults>${totalResults}</opensearch:totalResults>`,
    `  <opensearch:startIndex>${startIndex}</opensearch:startIndex>`,
    ...options.papers.map(currentEntry),
    "</feed>",
    "",
  ].join("\n");
}

/**
 * Renders arXiv's error feed: a one-entry feed whose entry is titled `Error`, points into
 * `/api/errors` and explains the problem in its `<summary>`. arXiv sends it with HTTP 400.
 */
export function renderArxivErrorFeed(options: RenderArxivErrorFeedOptions): string {
  const { query, message } = options;
  const id = feedId(query);
  const anchor = encodeURIComponent(message.replace(/\s+/g, "_"));
  const queryEcho = `search_query=${query.search_query}&id_list=${query.id_list}`;
  if ((options.form ?? "legacy") === "legacy") {
    const atom = `xmlns="${atomNs}"`;
    const openSearch = `xmlns:opensearch="${openSearchNs}"`;
    const errorUrl = `http://arxiv.org/api/errors#${anchor}`;
    return [
      '<?xml version="1.0" encoding="utf-8"?>',
      `<feed ${atom} ${openSearch}>`,
      `  <link ${atom} href="${escapeXml(`http://arxiv.org/api/query?${queryEcho}`)}" rel="self" type="application/atom+xml"/>`,
      `  <title ${atom}>ArXiv Query: ${escapeXml(queryEcho)}</title>`,
      `  <id ${atom}>http://arxiv.org/api/${id}</id>`,
      `  <updated ${atom}>${legacyUpdated()}</updated>`,
      `  <opensearch:totalResults ${openSearch}>1</opensearch:totalResults>`,
      `  <opensearch:startIndex ${openSearch}>0</opensearch:startIndex>`,
      `  <opensearch:itemsPerPage ${openSearch}>1</opensearch:itemsPerPage>`,
      `  <entry ${atom}>`,
      `    <id>${escapeXml(errorUrl)}</id>`,
      "    <title>Error</title>",
      `    <summary>${escapeXml(message)}</summary>`,
      `    <updated>${legacyUpdated()}</updated>`,
      `    <link href="${escapeXml(errorUrl)}" rel="alternate" type="text/html"/>`,
      "    <author>",
      "      <name>arXiv api core</name>",
      "    </author>",
      "  </entry>",
      "</feed>",
      "",
    ].join("\n");
  }
  const errorUrl = `https://arxiv.org/api/errors#${anchor}`;
  return [
    "<?xml version='1.0' encoding='UTF-8'?>",
    `<feed xmlns="${atomNs}" xmlns:opensearch="${openSearchNs}" xmlns:arxiv="${arxivNs}">`,
    `  <id>https://arxiv.org/api/${id}</id>`,
    `  <title>arXiv Query: ${escapeXml(queryEcho)}</title>`,
    `  <updated>${currentUpdated()}</updated>`,
    `  <link href="${escapeXml(`https://arxiv.org/api/query?${queryEcho}`)}" type="application/atom+xml"/>`,
    "  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>",
    "  <opensearch:totalResults>1</opensearch:totalResults>",
    "  <opensearch:startIndex>0</opensearch:startIndex>",
    "  <entry>",
    `    <id>${escapeXml(errorUrl)}</id>`,
    "    <title>Error</title>",
    `    <updated>${currentUpdated()}</updated>`,
    `    <link href="${escapeXml(errorUrl)}" rel="alternate" type="text/html"/>`,
    `    <summary>${escapeXml(message)}</summary>`,
    "    <author>",
    "      <name>arXiv api core</name>",
    "    </author>",
    "  </entry>",
    "</feed>",
    "",
  ].join("\n");
}
