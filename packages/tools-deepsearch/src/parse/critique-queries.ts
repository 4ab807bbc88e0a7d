const numberedLine = /^\d+\. (.*)$/;
// Straight or typographic double quotes: models emit both.
const quoted = /["“]([^"“”]*)["”]/;

/**
 * The search queries in a reply to the critique: only numbered lines (digits, a dot and a
 * space) count; when a line holds text in double quotes, that text is the query, else the
 * rest of the line is. At most `max` queries are kept, in order; empty ones are skipped.
 *
 * @example
 * parseCritiqueQueries('Queries:\n1. "btc ETF flows 2025"\n2. Look up "ETH fees"\n3. SOL outlook', 2);
 * // ["btc ETF flows 2025", "ETH fees"]
 */
export function parseCritiqueQueries(reply: string, max: number): string[] {
  const queries: string[] = [];
  for (const line of reply.replace(/\r\n?/g, "\n").split("\n")) {
    if (queries.length >= max) break;
    const body = numberedLine.exec(line.trim())?.[1];
    if (body === undefined) continue;
    const query = (quoted.exec(body)?.[1] ?? body).trim();
    if (query !== "") queries.push(query);
  }
  return queries;
}
