/** The `query` argument of `search_api`: plain text, or named parts of a question. */
export type SearchQuery = string | Record<string, string>;

/**
 * The text sent to the search service. A record becomes one `key: value` line per entry, in
 * insertion order, so a model can pass a structured question.
 *
 * @example
 * queryText({ company: "NVIDIA", topic: "latest earnings" }); // "company: NVIDIA\ntopic: latest earnings"
 */
export function queryText(query: SearchQuery): string {
  if (typeof query === "string") return query;
  return Object.entries(query)
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n");
}
