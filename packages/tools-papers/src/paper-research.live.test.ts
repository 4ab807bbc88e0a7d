import { describe, expect, it } from "vitest";
import { paper_research } from "./paper-research.js";

// Contacts the real arXiv API (or ARXIV_API_URL when set); run with FRAMEWORK_LIVE=1.
describe.skipIf(process.env.FRAMEWORK_LIVE !== "1")("paper_research against arXiv (live)", () => {
  it("finds papers on a well-covered topic", async () => {
    const result = await paper_research({ topic: "large language model agents", max_results: 3 });
    expect(result.error).toBeUndefined();
    expect(result.total_papers).toBe(3);
    expect(result.total_results).toBeGreaterThan(3);
    expect(result.paper_ids).toEqual(result.papers_info.map((paper) => paper.paper_id));
    for (const paper of result.papers_info) {
      expect(paper.paper_id).toMatch(/^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})v\d+$/);
      expect(paper.title).not.toBe("");
      expect(paper.authors.length).toBeGreaterThan(0);
      expect(paper.summary).not.toBe("");
      expect(paper.published).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(paper.pdf_url).toMatch(new RegExp(`^https?://.+/pdf/${paper.paper_id}$`));
    }
  });
});
