import { OpenAIChatModel } from "@framework/core";
import { describe, expect, it } from "vitest";
import { DeepSearch } from "./deep-search.js";
import { deepsearch_tool } from "./deepsearch-tool.js";

// Talks to the real LLM provider and Tavily; run with FRAMEWORK_LIVE=1, LLM_API_KEY and
// TAVILY_API_KEY set. One chapter keeps it to a few calls.
describe.skipIf(process.env.FRAMEWORK_LIVE !== "1")("deep search (live)", () => {
  it("writes a one-chapter report in the spec's format", async () => {
    const deepSearch = new DeepSearch({ llm: new OpenAIChatModel() });
    const report = await deepSearch.streamingResponse("What drove the price of gold this year?", {
      maxChapters: 1,
      maxParagraphsPerChapter: 2,
    });
    expect(report).toMatch(/^# I\. Planning\n1\. .+\n[\s\S]+\n\n# II\. Results\n## 1\. .+ \n \S/);
  }, 180_000);

  it("answers through the tool with the environment's model", async () => {
    const text = await deepsearch_tool({
      query: "State of solar power in Vietnam",
      max_chapters: 1,
    });
    expect(text).not.toMatch(/^Deep search (failed|was cancelled)/);
    expect(text).toContain("# II. Results\n## 1. ");
  }, 180_000);
});
