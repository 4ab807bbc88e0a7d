import { describe, expect, it } from "vitest";
import { search_api } from "./search-api.js";

// Talks to the real Tavily API; run with FRAMEWORK_LIVE=1 and TAVILY_API_KEY set.
describe.skipIf(process.env.FRAMEWORK_LIVE !== "1")("search_api (live)", () => {
  it("answers a question from the real service", async () => {
    const text = await search_api({ query: "What is the capital of France?" });
    expect(text).not.toMatch(/^Web search/);
    expect(text).toMatch(/Paris/i);
  });

  it("accepts a record query", async () => {
    const text = await search_api({ query: { country: "Japan", question: "capital city" } });
    expect(text).toMatch(/Tokyo/i);
  });
});
