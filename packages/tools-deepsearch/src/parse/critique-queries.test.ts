import { describe, expect, it } from "vitest";
import { parseCritiqueQueries } from "./critique-queries.js";

describe("parseCritiqueQueries", () => {
  const reply = [
    "Here are the queries:",
    '1. "bitcoin ETF net flows March 2025"',
    '2. Search for "stablecoin reserve rules" in the draft consultation',
    "3. crypto volatility index 2025",
    '- "not numbered"',
    '4) "wrong numbering"',
    "5. “typographic quotes”",
    '6. "beyond the limit"',
  ].join("\n");

  it("keeps numbered lines only; quoted text is the query, else the rest of the line", () => {
    expect(parseCritiqueQueries(reply, 10)).toEqual([
      "bitcoin ETF net flows March 2025",
      "stablecoin reserve rules",
      "crypto volatility index 2025",
      "typographic quotes",
      "beyond the limit",
    ]);
  });

  it("keeps at most max_critical_queries, the first ones", () => {
    expect(parseCritiqueQueries(reply, 3)).toEqual([
      "bitcoin ETF net flows March 2025",
      "stablecoin reserve rules",
      "crypto volatility index 2025",
    ]);
    expect(parseCritiqueQueries(reply, 1)).toEqual(["bitcoin ETF net flows March 2025"]);
  });

  it("skips empty queries and reads indented lines and Windows line ends", () => {
    expect(parseCritiqueQueries('1. ""\r\n  2.  \r\n   3. "eth fees"\r\n', 5)).toEqual([
      "eth fees",
    ]);
  });

  it("finds nothing in prose", () => {
    expect(parseCritiqueQueries("The draft is fine; no research needed.", 3)).toEqual([]);
  });
});
