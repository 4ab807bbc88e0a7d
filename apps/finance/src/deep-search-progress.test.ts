import { describe, expect, it } from "vitest";
import { deepSearchStep } from "./deep-search-progress.js";

describe("deepSearchStep", () => {
  it("names each step of a report: outline, searches, writing, critique and revision", () => {
    const chapter = { chapter: 2, title: "2. Outlook", revision: 1 };
    expect(
      [
        { type: "planned", plan: [], titles: ["1. Price", "2. Outlook"] },
        { type: "chapter-start", ...chapter, chapterCount: 2, queries: ["nvda outlook"] },
        { type: "search", stage: "chapter", query: "nvda outlook", status: "ok", results: 2 },
        {
          type: "search",
          stage: "critique",
          query: "nvda risks",
          status: "failed",
          results: 0,
          error: "HTTP 429",
        },
        { type: "chapter-writing", ...chapter, revision: 2, notes: 3 },
        { type: "chapter-written", ...chapter, text: "..." },
        { type: "critique", critique: "More figures." },
        { type: "critique-queries", queries: ["nvda risks", "nvda margins"] },
      ].map((event) => deepSearchStep(event as Parameters<typeof deepSearchStep>[0])),
    ).toEqual([
      "outline of 2 chapters: 1. Price; 2. Outlook",
      'chapter 2 "2. Outlook" of 2: searching 1 query',
      'searched "nvda outlook": 2 results',
      'search "nvda risks" failed: HTTP 429',
      'writing chapter 2 "2. Outlook", revision 1 from 3 notes',
      'wrote chapter 2 "2. Outlook"',
      "critiquing the draft",
      "revising: searching 2 queries from the critique",
    ]);
  });
});
