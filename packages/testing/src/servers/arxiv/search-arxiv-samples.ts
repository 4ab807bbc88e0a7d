import type { ArxivSamplePaper } from "./arxiv-sample-papers.js";

/** How the fake orders matches, mirroring arXiv's `sortBy` and `sortOrder`. */
export interface ArxivSampleSearch {
  /** arXiv query syntax; field prefixes and boolean operators are read loosely. */
  searchQuery: string;
  /** Ids to restrict to, with or without version; empty for no restriction. */
  ids: readonly string[];
  sortBy: "relevance" | "lastUpdatedDate" | "submittedDate";
  sortOrder: "ascending" | "descending";
}

const stopWords = new Set([
  "a",
  "an",
  "and",
  "as",
  "at",
  "by",
  "for",
  "from",
  "in",
  "of",
  "on",
  "or",
  "the",
  "to",
  "with",
]);

// Plural and singular match each other ("agents" finds "agent"), which is all the stemming
// a loose fake needs.
function stem(word: string): string {
  return word.length > 3 && word.endsWith("s") ? word.slice(0, -1) : word;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(stem);
}

/** One searched word, with the field prefix it came with (`all` when it had none). */
interface QueryTerm {
  field: string;
  word: string;
}

function queryTerms(searchQuery: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  for (const match of searchQuery.matchAll(/(?:\b([a-z]+):)?(?:"([^"]*)"|([^\s()"]+))/g)) {
    const field = match[1] ?? "all";
    const text = match[2] ?? match[3] ?? "";
    // Operators are skipped, and so is a prefix before a group (`ti:(a OR b)`), whose words
    // are then searched everywhere.
    if (match[1] === undefined && /^(?:AND|OR|ANDNOT)$|:$/.test(text)) continue;
    if (field === "cat") {
      terms.push({ field, word: text.toLowerCase() });
      continue;
    }
    for (const word of words(text)) {
      if (!stopWords.has(word)) terms.push({ field, word });
    }
  }
  return terms;
}

function countOf(haystack: readonly string[], word: string): number {
  return haystack.filter((candidate) => candidate === word).length;
}

// `cat:cs` matches every cs.* paper; `cat:cs.SE` only that category.
function categoryHits(paper: ArxivSamplePaper, category: string): number {
  return paper.categories.filter((candidate) => {
    const lower = candidate.toLowerCase();
    return lower === category || lower.startsWith(`${category}.`);
  }).length;
}

function relevance(paper: ArxivSamplePaper, terms: readonly QueryTerm[]): number {
  const title = words(paper.title);
  const summary = words(paper.summary);
  const authors = words(paper.authors.map((author) => author.name).join(" "));
  return terms.reduce((score, { field, word }) => {
    const inTitle = 3 * countOf(title, word);
    const inSummary = countOf(summary, word);
    const inAuthors = 2 * countOf(authors, word);
    switch (field) {
      case "ti":
        return score + inTitle;
      case "abs":
        return score + inSummary;
      case "au":
        return score + inAuthors;
      case "cat":
        return score + 2 * categoryHits(paper, word);
      default:
        return score + inTitle + inSummary + inAuthors + 2 * categoryHits(paper, word);
    }
  }, 0);
}

function withoutVersion(id: string): string {
  return id.replace(/v\d+$/, "");
}

/**
 * The papers matching a query, ordered as arXiv would order them. Matching is loose: any
 * query word found makes a match (boolean operators are not applied). Words with a field
 * prefix (`ti:`, `abs:`, `au:`, `cat:`) are looked for in that field only; others in title,
 * abstract, authors and categories. Relevance weighs title hits highest. With ids, only
 * those papers (in the order given) are considered.
 */
export function searchArxivSamples(
  papers: readonly ArxivSamplePaper[],
  search: ArxivSampleSearch,
): ArxivSamplePaper[] {
  const candidates =
    search.ids.length === 0
      ? [...papers]
      : search.ids.flatMap((id) => {
          const found = papers.find((paper) => paper.id === id || withoutVersion(paper.id) === id);
          return found ? [found] : [];
        });
  if (search.searchQuery.trim() === "") return candidates;
  const terms = queryTerms(search.searchQuery);
  const scored = candidates
    .map((paper) => ({ paper, score: relevance(paper, terms) }))
    .filter(({ score }) => score > 0);
  const key = ({ paper, score }: (typeof scored)[number]): number => {
    if (search.sortBy === "relevance") return score;
    return Date.parse(search.sortBy === "submittedDate" ? paper.published : paper.updated);
  };
  const direction = search.sortOrder === "descending" ? -1 : 1;
  return scored
    .sort((left, right) => (key(left) - key(right)) * direction)
    .map(({ paper }) => paper);
}
