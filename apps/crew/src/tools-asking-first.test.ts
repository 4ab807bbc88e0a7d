import { getToolSpec } from "@framework/core";
import { get_current_time } from "@framework/tools-time";
import { search_api } from "@framework/tools-websearch";
import { describe, expect, it } from "vitest";
import { askingFirst, crewToolsAskingFirst } from "./tools-asking-first.js";

describe("askingFirst", () => {
  it("is the same tool, marked needsApproval", async () => {
    const asking = askingFirst(get_current_time);
    const { execute: _a, needsApproval, ...spec } = getToolSpec(asking);
    const { execute: _b, ...original } = getToolSpec(get_current_time);
    expect(needsApproval).toBe(true);
    expect(spec).toEqual(original);
    expect(String(await asking())).toMatch(/\d{4}/);
  });

  it("marks the crew's web search and chart tools", () => {
    expect(crewToolsAskingFirst.map((tool) => getToolSpec(tool).name)).toEqual([
      getToolSpec(search_api).name,
      "visualize_stock_data",
      "plot_returns",
    ]);
  });
});
