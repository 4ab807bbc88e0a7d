import { describe, expect, it } from "vitest";
import { AgentState } from "./agent-state.js";
import { defaultDeepSearchLimits, maxSteps, runInput } from "./run-input.js";

describe("AgentState", () => {
  it("has the spec's keys and defaults, and the report's sources", () => {
    expect(AgentState.initialValues()).toEqual({
      task: "",
      plan: [],
      draft: "",
      critique: "",
      adjustment: [],
      // Beyond the spec: the URLs the report cites.
      sources: [],
      sections: [],
      chapters: [],
      revision_number: 1,
      max_revisions: 1,
      max_chapters: 5,
      max_paragraphs_per_chapter: 5,
      max_critical_queries: 5,
      number_of_chapters: 0,
      current_chapter_order: 0,
    });
  });

  it("refuses limits below 1", () => {
    const initial = AgentState.initialValues();
    expect(() => AgentState.applyUpdate(initial, { max_chapters: 0 }, "test")).toThrow(
      /max_chapters/,
    );
    expect(() => AgentState.applyUpdate(initial, { max_revisions: 1.5 }, "test")).toThrow(
      /max_revisions/,
    );
  });
});

describe("runInput", () => {
  it("sets every key, so a thread's next run starts clean", () => {
    const input = runInput("Bitcoin in 2025", { ...defaultDeepSearchLimits, maxRevisions: 2 });
    expect(Object.keys(input).sort()).toEqual([...AgentState.keys].sort());
    expect(input).toMatchObject({
      task: "Bitcoin in 2025",
      sections: [],
      chapters: [],
      revision_number: 1,
      max_chapters: 4,
      max_paragraphs_per_chapter: 5,
      max_critical_queries: 3,
      max_revisions: 2,
    });
  });
});

describe("maxSteps", () => {
  it("covers planner, a generate per chapter and draft, and reflect and critique in between", () => {
    // 3 chapters, 2 drafts: 1 + 6 generate + 5 reflect + 5 research_critique = 17 <= 18.
    expect(maxSteps({ ...defaultDeepSearchLimits, maxChapters: 3, maxRevisions: 2 })).toBe(18);
  });
});
