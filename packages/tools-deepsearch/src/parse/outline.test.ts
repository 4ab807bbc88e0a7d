import { describe, expect, it } from "vitest";
import { parseChapterOutline, parseOutline } from "./outline.js";

describe("parseOutline", () => {
  it("keeps exactly the blocks beginning with digits, a dot and a space", () => {
    const reply = [
      "Here is the outline you asked for:",
      "1. Market overview\nbitcoin price today\nbitcoin ETF flows",
      "Some chapters below are optional.",
      "**2. Bold chapter**\nignored query",
      "2) Wrong numbering\nignored query",
      "2.No space\nignored",
      "  10. Risks and outlook  \ncrypto regulation 2025",
      "Hope this helps!",
    ].join("\n\n");
    expect(parseOutline(reply)).toEqual([
      "1. Market overview\nbitcoin price today\nbitcoin ETF flows",
      "10. Risks and outlook  \ncrypto regulation 2025",
    ]);
  });

  it("splits on blank lines holding whitespace and on Windows line ends", () => {
    expect(parseOutline("1. A\r\nq1\r\n \r\n2. B\nq2\n\t\n\n3. C")).toEqual([
      "1. A\nq1",
      "2. B\nq2",
      "3. C",
    ]);
  });

  it("keeps nothing from a reply without numbered blocks", () => {
    expect(parseOutline("")).toEqual([]);
    expect(parseOutline("I cannot help with that.\n\n- a\n- b")).toEqual([]);
  });
});

describe("parseChapterOutline", () => {
  it("takes the first line as the title and every further line as a query", () => {
    expect(
      parseChapterOutline("1. Market overview\nbitcoin price today\nbitcoin ETF flows"),
    ).toEqual({
      title: "1. Market overview",
      queries: ["bitcoin price today", "bitcoin ETF flows"],
    });
  });

  it("trims lines, drops list bullets and empty lines", () => {
    expect(
      parseChapterOutline("2. Outlook  \n - btc forecast\n* eth forecast\n\n• sol\n  plain "),
    ).toEqual({
      title: "2. Outlook",
      queries: ["btc forecast", "eth forecast", "sol", "plain"],
    });
  });

  it("has no queries for a title alone", () => {
    expect(parseChapterOutline("3. Conclusion")).toEqual({ title: "3. Conclusion", queries: [] });
  });
});
