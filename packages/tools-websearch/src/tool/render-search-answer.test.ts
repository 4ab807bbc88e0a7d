import { describe, expect, it } from "vitest";
import { renderSearchAnswer } from "./render-search-answer.js";

const result = (n: number) => ({
  title: `Title ${n}`,
  url: `https://example.com/${n}`,
  content: `Content ${n}.`,
  score: 1 - n / 10,
});

describe("renderSearchAnswer", () => {
  it("returns the answer when there is one", () => {
    expect(renderSearchAnswer({ answer: "The answer.", results: [result(1)] })).toBe("The answer.");
  });

  it("falls back to the top three results with titles and addresses", () => {
    expect(renderSearchAnswer({ results: [1, 2, 3, 4].map(result) })).toBe(
      [
        "No direct answer was found. Top web results:",
        "1. Title 1\nhttps://example.com/1\nContent 1.",
        "2. Title 2\nhttps://example.com/2\nContent 2.",
        "3. Title 3\nhttps://example.com/3\nContent 3.",
      ].join("\n\n"),
    );
  });

  it("treats a blank answer as none", () => {
    expect(renderSearchAnswer({ answer: "  ", results: [result(1)] })).toBe(
      "No direct answer was found. Top web results:\n\n1. Title 1\nhttps://example.com/1\nContent 1.",
    );
  });

  it("says so when nothing was found", () => {
    expect(renderSearchAnswer({ results: [] })).toBe("No web results were found for this query.");
  });
});
